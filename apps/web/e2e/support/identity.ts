import path from 'node:path';
import type { Page } from 'playwright-core';
import { outboxListSchema } from '@strongroom/contracts/outbox.ts';
import { baseUrl } from './browser.ts';

/** How long the sandbox may take to put a message in its outbox (jobs run in the same process). */
const outboxWaitMs = 45_000;
const outboxPollMs = 250;

export const fixturesDirectory = path.resolve(import.meta.dirname, '../fixtures');

/** A new address for each run: the journeys share one server and one database. */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * A Denver number from seven random digits (eight million of them), spaced as the bank shows it
 * ("303 234 5678", after "+1 "), and its E.164 form for the outbox. Journeys share one server: a
 * number another journey's customer verified is refused (decision 055), and the outbox of a shared
 * number holds the other customer's codes. The 900 fiction numbers (555 01xx) this drew from
 * before met twice in one CI run, and one of them is the sandbox customer's.
 */
export function uniquePhoneNumber(): { national: string; e164: string } {
  const digits = `${2 + Math.floor(Math.random() * 8)}${String(Math.floor(Math.random() * 1_000_000)).padStart(6, '0')}`;
  return { national: `303 ${digits.slice(0, 3)} ${digits.slice(3)}`, e164: `+1303${digits}` };
}

/**
 * The newest message to `to` whose text matches `pattern`, waiting for it to arrive. Reads the
 * sandbox outbox (`GET /api/v1/dev/outbox?to=`), as a tester would on /dev/mail.
 */
export async function readOutbox(to: string, pattern: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + outboxWaitMs;
  while (Date.now() < deadline) {
    // Each read bounded, so a server that stops answering fails here by name, not at the test's limit.
    const response = await fetch(`${baseUrl()}/api/v1/dev/outbox?to=${encodeURIComponent(to)}`, { signal: AbortSignal.timeout(outboxWaitMs) });
    const { items } = outboxListSchema.parse(await response.json());
    for (const item of items) {
      const match = pattern.exec(item.text);
      if (match) return match;
    }
    await new Promise((resolve) => setTimeout(resolve, outboxPollMs));
  }
  throw new Error(`No message to ${to} matching ${pattern} arrived within ${outboxWaitMs} ms`);
}

export const verificationLinkPattern = /\/verification\/([\w-]+)/;
export const resetLinkPattern = /\/resetpassword\/([\w-]+)/;
export const phoneCodePattern = /\b(\d{4})\b/;

/** The page's background in each scheme (tokens.css `--color-bg`), to know the switch has been applied. */
const pageBackgrounds = { light: 'rgb(255, 255, 255)', dark: 'rgb(11, 18, 32)' } as const;

/**
 * Switches `prefers-color-scheme` and waits until the page shows it: Chromium applies the change a
 * moment later, and axe measuring contrast in between would see a mix of both schemes.
 */
export async function showColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((background) => getComputedStyle(document.body).backgroundColor === background, pageBackgrounds[scheme]);
  // Colours that ease from one scheme to the other (buttons): wait for those transitions to end.
  // (Only transitions: a spinner's animation never finishes.)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished),
    ).then(() => undefined),
  );
}
