import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { outboxListSchema } from '@strongroom/contracts/outbox.ts';
import { baseUrl, expectNoAxeViolations, viewports, useBrowser } from './support/browser.ts';
import { createFundedCustomer, type FundedCustomer, heading, readStepUpCode, signInPastWelcome, stepUpDialog } from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** Signing in twice, a step-up by code, a passkey added, a payment confirmed with it, a rename and a removal. */
const journeyTimeoutMs = 180_000;

/**
 * The journeys' server has PUBLIC_URL http://127.0.0.1:PORT, and browsers refuse an IP address as
 * a WebAuthn relying party: the server uses `localhost` on the same port for passkeys
 * (docs/decisions/030), so this journey opens the bank there.
 */
function localhostUrl(): string {
  const url = new URL(baseUrl());
  url.hostname = 'localhost';
  return url.origin;
}

async function textsTo(phone: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/v1/dev/outbox?to=${encodeURIComponent(phone)}`);
  return outboxListSchema.parse(await response.json()).items.length;
}

/**
 * A page in a fresh context with Chromium's virtual authenticator (DevTools protocol): a platform
 * authenticator that keeps discoverable credentials and verifies the user without a prompt.
 */
async function openPageWithAuthenticator(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string; problems: string[] }> {
  const context = await browser.newContext({ baseURL: localhostUrl(), viewport: viewports.desktop });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) problems.push(message.text());
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { context, page, cdp, authenticatorId, problems };
}

async function openSecuritySettings(page: Page) {
  await page.goto('/settings/security');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.waitFor();
  return section;
}

async function payAnotherBank(page: Page, customer: FundedCustomer): Promise<void> {
  await page.goto('/transfer');
  await heading(page, 'Transfer');
  await page.getByRole('link', { name: /Transfer to other bank/ }).click();
  await heading(page, 'Transfer to other bank');
  await page.getByRole('textbox', { name: 'Account number' }).fill('123456789');
  await page.getByRole('textbox', { name: 'Holder name' }).fill(`${customer.firstName} Elsewhere`);
  await page.getByRole('textbox', { name: 'Bank name' }).fill('First Federal');
  await page.getByRole('combobox', { name: 'Country name' }).selectOption('United States');
  await page.getByRole('textbox', { name: 'Routing number' }).fill('011000015');
  await page.getByRole('textbox', { name: 'Amount' }).fill('30');
  await page.getByRole('textbox', { name: 'Message' }).fill('Confirmed with a passkey');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Confirm the transfer' }).getByRole('button', { name: 'Confirm' }).click();
}

describe.skipIf(!inject('chromiumPath'))('passkeys', () => {
  const browser = useBrowser();

  it(
    'adds a passkey in settings, signs in with it, confirms a payment with it, renames it and removes it',
    async () => {
      const customer = await createFundedCustomer('passkeys', 200_000, { firstName: 'Paige' });
      const { context, page, cdp, authenticatorId, problems } = await openPageWithAuthenticator(browser());
      await signInPastWelcome(page, customer);

      // Add: a name, the step-up (a texted code: no other method yet), then the device makes the key.
      let section = await openSecuritySettings(page);
      await section.getByRole('heading', { name: 'No passkeys yet' }).waitFor();
      await screenshotBothWidths(page, 'passkeys-01-none');
      await section.getByRole('button', { name: 'Add a passkey' }).click();
      const addDialog = page.getByRole('dialog', { name: 'Add a passkey' });
      await addDialog.getByRole('textbox', { name: 'Passkey name' }).fill('Journey laptop');
      await screenshotBothWidths(page, 'passkeys-02-name');
      await addDialog.getByRole('button', { name: 'Continue' }).click();
      const code = await readStepUpCode(customer);
      await stepUpDialog(page).getByRole('textbox', { name: 'Digit 1 of 6' }).click();
      await page.keyboard.type(code);
      await page.getByText('Passkey “Journey laptop” was added').waitFor();
      await section.getByText('Journey laptop', { exact: true }).waitFor();
      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]?.isResidentCredential).toBe(true);
      expect(credentials[0]?.rpId).toBe('localhost');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'passkeys-03-added');

      // Sign out, then in again with the passkey alone: no email, no password.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL('**/login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'passkeys-04-login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL('**/dashboard');
      await heading(page, 'Your dashboard');

      // A payment's step-up offers the passkey first and texts nothing until asked.
      const textsBefore = await textsTo(customer.phone);
      await payAnotherBank(page, customer);
      const dialog = stepUpDialog(page);
      await dialog.getByRole('button', { name: 'Use a passkey' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'passkeys-05-step-up');
      await dialog.getByRole('button', { name: 'Use a passkey' }).click();
      const popup = page.getByRole('dialog', { name: /^(Your payment of \$30\.00 is on its way|\$30\.00 transferred successfully)$/ });
      await popup.waitFor();
      expect(await textsTo(customer.phone)).toBe(textsBefore);
      await popup.getByRole('button', { name: 'Done' }).click();

      // Rename, then remove after the confirmation.
      section = await openSecuritySettings(page);
      const item = section.getByRole('listitem').filter({ hasText: 'Journey laptop' });
      await expect.poll(() => item.textContent()).toMatch(/Last used/);
      await section.getByRole('button', { name: 'Rename passkey Journey laptop' }).click();
      const renameDialog = page.getByRole('dialog', { name: 'Rename passkey' });
      await renameDialog.getByRole('textbox', { name: 'Passkey name' }).fill('Old laptop');
      await renameDialog.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Passkey renamed to “Old laptop”').waitFor();
      await section.getByText('Old laptop', { exact: true }).waitFor();
      await section.getByRole('button', { name: 'Remove passkey Old laptop' }).click();
      const confirm = page.getByRole('dialog', { name: 'Remove this passkey?' });
      await confirm.waitFor();
      await screenshotBothWidths(page, 'passkeys-06-remove');
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await page.getByText('Passkey “Old laptop” was removed').waitFor();
      await section.getByRole('heading', { name: 'No passkeys yet' }).waitFor();

      // The device still holds the key, but the bank no longer accepts it.
      await page.getByRole('button', { name: 'Logout' }).click();
      await page.waitForURL('**/login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      const refused = page.getByRole('alertdialog', { name: 'Passkey sign-in failed' });
      await refused.waitFor();
      expect(await refused.textContent()).toContain('This passkey was not accepted');
      expect(page.url()).toMatch(/\/login$/);
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );
});
