import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import { accountOf, answerStepUpBySms, createFundedCustomer, heading } from './support/money.ts';
import { screenshotWidths } from './support/screenshots.ts';

/**
 * Issue 38: the sandbox's budgeting app (Pennywise) asks, through the bank's authorization server
 * (PAR, PKCE, DPoP, with openid-client on the app's side), to read the customer's data; the
 * customer signs in at the bank, consents to one account with a step-up, and Pennywise reads that
 * account's transactions and no other's. The customer revokes the app in Settings › Connected
 * apps, and Pennywise's next read is refused.
 */
const journeyTimeoutMs = 240_000;
const appName = 'Pennywise (sandbox)';

function screenshots(page: Page, name: string): Promise<void> {
  return screenshotWidths(page, 'connected-apps', name);
}

describe.skipIf(!inject('chromiumPath'))('connected apps: a budgeting app reads one consented account until the customer revokes it', () => {
  const browser = useBrowser();

  it(
    'Pennywise asks, the customer signs in and allows one account with a code, Pennywise shows that account only; revoked in Settings, its next read fails',
    async () => {
      const customer = await createFundedCustomer('connected-apps', 150_000, { firstName: 'Penny', lastName: 'Connect' });
      const checkingEnding = accountOf(customer, 'checking').number.slice(-4);
      const savingsEnding = accountOf(customer, 'savings').number.slice(-4);
      const { page, problems } = await openPage(browser());

      // The app, signed out of the bank: it says what it is and offers to connect.
      await page.goto('/sandbox/budget-app/');
      await heading(page, 'Budget with your real spending');
      expect(await page.getByText('a fictional budgeting app of the sandbox, to try connected apps').isVisible()).toBe(true);
      await expectNoAxeViolations(page);
      await screenshots(page, '01-pennywise-home');
      await page.getByRole('button', { name: 'Connect your Strongroom account' }).click();

      // At the bank: the consent page asks the visitor to sign in first, and stays where it is.
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/connect\/[\w-]+$/);
      await page.getByRole('textbox', { name: 'Email' }).fill(customer.email);
      await page.getByLabel('Password', { exact: true }).fill(customer.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await heading(page, `${appName} wants to see your data`);
      expect(new URL(page.url()).pathname).toMatch(/^\/connect\/[\w-]+$/);

      // Every cluster asked for is ticked, no account is: the customer ticks their checking only.
      const accounts = page.getByRole('group', { name: 'From which accounts' });
      expect(await accounts.getByRole('checkbox').count()).toBeGreaterThanOrEqual(2);
      await accounts.getByRole('checkbox', { name: new RegExp(`${checkingEnding}`) }).check();
      expect(await accounts.getByRole('checkbox', { name: new RegExp(`${savingsEnding}`) }).isChecked()).toBe(false);
      expect(await page.getByRole('spinbutton', { name: 'For how long (days)' }).inputValue()).toBe('365');
      await expectNoAxeViolations(page);
      await screenshots(page, '02-consent-page');

      await page.getByRole('button', { name: 'Allow', exact: true }).click();
      await answerStepUpBySms(page, customer);

      // Back at Pennywise, which read the consented account and its transactions, and nothing else.
      await heading(page, 'Your money, from Strongroom');
      expect(new URL(page.url()).pathname).toBe('/sandbox/budget-app/refresh');
      await page.getByText(`Account ending ${checkingEnding}`).waitFor();
      expect(await page.getByText(`Account ending ${savingsEnding}`).count()).toBe(0);
      const transactions = page.getByRole('table', { name: /^Transactions of / });
      expect(await transactions.count()).toBe(1);
      expect(await transactions.getByRole('row').count()).toBeGreaterThanOrEqual(2);
      expect(await page.getByText('$1,500.00').count()).toBeGreaterThanOrEqual(1);
      await expectNoAxeViolations(page);
      await screenshots(page, '03-pennywise-reading');

      // Settings › Connected apps lists the app; revoking it asks first, then ends it.
      await page.goto('/settings/connected-apps');
      await heading(page, 'Connected apps');
      await page.getByText(appName).first().waitFor();
      await expectNoAxeViolations(page);
      await screenshots(page, '04-connected-apps');
      await page.getByRole('button', { name: `Revoke access for ${appName}` }).click();
      const confirm = page.getByRole('dialog', { name: `Revoke access for ${appName}?` });
      await confirm.getByRole('button', { name: 'Revoke access' }).click();
      await confirm.waitFor({ state: 'hidden' });
      await page.getByRole('heading', { name: 'No connected apps' }).waitFor();
      await screenshots(page, '05-connected-apps-revoked');

      // Pennywise's next read is refused by the bank: its access has ended.
      await page.goto('/sandbox/budget-app/');
      await page.getByRole('link', { name: 'See your money' }).click();
      await page.getByText('Strongroom says this app’s access has ended (the customer revoked it or it expired).').waitFor();
      await expectNoAxeViolations(page);
      await screenshots(page, '06-pennywise-ended');
      expect(problems).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
