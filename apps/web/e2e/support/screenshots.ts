import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { viewports } from './browser.ts';

/** Where the journeys' pictures go, a folder per journey: outside the repository, for a person to look at. */
export const shotsRoot = '/tmp/shots';

/**
 * Whether pictures are taken. A developer's run takes them; a CI run (CI=true) does not unless
 * asked with E2E_SCREENSHOTS=1: nobody looks at a thrown-away machine's /tmp, and the pictures were
 * a fifth of the journeys' Chromium time (decision 084).
 */
export const takingScreenshots = process.env.E2E_SCREENSHOTS === '1' || process.env.CI !== 'true';

/** Saves a picture of a page or of one element as `folder/name.png` under {@link shotsRoot}, when {@link takingScreenshots}. */
export async function saveScreenshot(target: Page | Locator, folder: string, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!takingScreenshots) return;
  const directory = path.join(shotsRoot, folder);
  await mkdir(directory, { recursive: true });
  await target.screenshot({ path: path.join(directory, `${name}.png`), ...options });
}

/** A viewport `width` pixels wide, as tall as the phone's screen up to the phone's width and as the desktop's above it. */
function viewportOf(width: number): { width: number; height: number } {
  return { width, height: width <= viewports.phone.width ? viewports.phone.height : viewports.desktop.height };
}

export interface WidthsOptions {
  /** The widths, in the order they are shown; phone then desktop unless told. */
  widths?: readonly number[];
  /** The width the page is left at; the desktop's unless told. */
  endWidth?: number;
}

/**
 * Lays the page out at each width and takes a full-page picture there (`name-{width}.png`), then
 * leaves it at `endWidth`. When no picture is taken (a CI run) the page is still laid out at every
 * width, so a journey meets the same page either way, and a script error at phone width still
 * fails it.
 */
export async function screenshotWidths(page: Page, folder: string, name: string, options: WidthsOptions = {}): Promise<void> {
  const { widths = [viewports.phone.width, viewports.desktop.width], endWidth = viewports.desktop.width } = options;
  for (const width of widths) {
    await page.setViewportSize(viewportOf(width));
    // Layout settles (media queries, the sticky header) before the picture is taken.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await saveScreenshot(page, folder, `${name}-${width}`, { fullPage: true });
  }
  if (widths.at(-1) !== endWidth) await page.setViewportSize(viewportOf(endWidth));
}

/**
 * The journeys' usual pair: phone width (390 px), then desktop width (1280 px), where the page is
 * left; the pictures go to the folder the first journeys used, `identity`.
 */
export function screenshotBothWidths(page: Page, name: string): Promise<void> {
  return screenshotWidths(page, 'identity', name);
}
