import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, viewports, waitForApp, useBrowser } from './support/browser.ts';

describe.skipIf(!inject('chromiumPath'))('public navigation on a phone (390 px)', () => {
  const browser = useBrowser();

  it('hides the links behind a Menu button that opens and closes them', async () => {
    const { context, page } = await openPage(browser(), { viewport: viewports.phone });
    await page.goto('/');
    await waitForApp(page);
    const menuButton = page.getByRole('button', { name: 'Menu' });
    const menu = page.locator('#site-menu');
    expect(await menuButton.getAttribute('aria-controls')).toBe('site-menu');
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.isVisible()).toBe(false);

    await menuButton.click();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
    expect(await menu.getByRole('link', { name: 'Signup' }).isVisible()).toBe(true);
    await expectNoAxeViolations(page);

    await menuButton.click();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(await menu.isVisible()).toBe(false);
    await context.close();
  });

  it('closes the menu with Esc and after following a link', async () => {
    const { context, page } = await openPage(browser(), { viewport: viewports.phone });
    await page.goto('/');
    await waitForApp(page);
    const menuButton = page.getByRole('button', { name: 'Menu' });
    await menuButton.click();
    await page.locator('#site-menu').getByRole('link', { name: 'Cards' }).focus();
    await page.keyboard.press('Escape');
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(await menuButton.evaluate((element) => element === document.activeElement)).toBe(true);

    await menuButton.click();
    await page.locator('#site-menu').getByRole('link', { name: 'Cards' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cards that reward how you spend' }).waitFor();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('fits every public page into the phone’s width without sideways scrolling', async () => {
    const { context, page } = await openPage(browser(), { viewport: viewports.phone });
    for (const path of ['/', '/about', '/savings', '/current', '/cards', '/faq', '/contact', '/login']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBe(0);
    }
    await context.close();
  });
});
