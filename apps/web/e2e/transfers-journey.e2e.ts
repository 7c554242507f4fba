import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { accountListSchema } from '@strongroom/contracts/accounts.ts';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import { accountOf, answerStepUpBySms, createFundedCustomer, figureOnDashboard, heading, signInPastWelcome, stepUpDialog } from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** Signing in, several dialogs, a step-up code from the outbox and a second customer's session. */
const journeyTimeoutMs = 240_000;
/** RAIL_SPEED=instant settles within about a second; the sweep, the live event and the refetch add a little. */
const settleTimeoutMs = 45_000;

/** openPage watches its own page; a second tab in the same context is watched the same way. */
function watchForProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) problems.push(message.text());
  });
}

/**
 * Resolves once the success popup has shown the status 'Pending'. Polled every frame, because the
 * instant rail may settle moments later and the popup then shows 'Completed' by itself.
 */
function popupShowsPending(page: Page): Promise<unknown> {
  return page.waitForFunction(
    () => [...document.querySelectorAll('dialog[open]')].some((dialog) => dialog.textContent?.includes('Status: Pending')),
    undefined,
    { polling: 'raf', timeout: 30_000 },
  );
}

async function chooseOtherBankTransfer(page: Page): Promise<void> {
  await page.goto('/transfer');
  await heading(page, 'Transfer');
  await page.getByRole('link', { name: /Transfer to other bank/ }).click();
  await heading(page, 'Transfer to other bank');
}

describe.skipIf(!inject('chromiumPath'))('moving money', () => {
  const browser = useBrowser();

  it(
    'moves money from checking to savings, and the open dashboard shows the new balances without a reload',
    async () => {
      const customer = await createFundedCustomer('own-transfer', 500_000);
      const { context, page: dashboard, problems } = await openPage(browser());
      await signInPastWelcome(dashboard, customer);
      await expect.poll(() => figureOnDashboard(dashboard, 'Easy Checking', 'Balance')).toBe('$5,000.00');
      expect(await figureOnDashboard(dashboard, 'Standard Savings', 'Balance')).toBe('$0.00');
      // A reload would lose this; the dashboard must change without one.
      await dashboard.evaluate(() => Object.assign(window, { journeyNoReload: true }));

      const page = await context.newPage();
      watchForProblems(page, problems);
      await page.goto('/transfer');
      await heading(page, 'Transfer');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-01-choice');
      await page.getByRole('link', { name: /Transfer within my accounts/ }).click();
      await heading(page, 'Transfer within my accounts');
      await page.getByLabel('From account').selectOption(accountOf(customer, 'checking').id);
      await page.getByLabel('To account').selectOption(accountOf(customer, 'savings').id);
      await page.getByRole('textbox', { name: 'Amount' }).fill('125.50');
      await page.getByRole('textbox', { name: 'Message' }).fill('Towards the holiday');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-02-own-form');
      await page.getByRole('button', { name: 'Continue' }).click();

      const confirmation = page.getByRole('dialog', { name: 'Confirm the transfer' });
      await confirmation.waitFor();
      await confirmation.getByText('$125.50').waitFor();
      await confirmation.getByText('Towards the holiday').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-03-own-confirm');
      await confirmation.getByRole('button', { name: 'Confirm' }).click();

      // Between one's own accounts there is no step-up and no rail: it is done at once.
      const popup = page.getByRole('dialog', { name: '$125.50 transferred successfully' });
      await popup.waitFor();
      await popup.getByText('Completed', { exact: true }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-04-own-success');
      await popup.getByRole('button', { name: 'Done' }).click();

      await expect.poll(() => figureOnDashboard(dashboard, 'Easy Checking', 'Balance'), { timeout: settleTimeoutMs }).toBe('$4,874.50');
      await expect.poll(() => figureOnDashboard(dashboard, 'Standard Savings', 'Balance'), { timeout: settleTimeoutMs }).toBe('$125.50');
      await dashboard.getByRole('row').filter({ hasText: 'Towards the holiday' }).first().waitFor({ timeout: settleTimeoutMs });
      expect(await dashboard.evaluate(() => 'journeyNoReload' in window)).toBe(true);
      await screenshotBothWidths(dashboard, 'transfers-05-own-dashboard');
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'pays a customer of this bank after a payee check and a step-up code, saves them as a favourite, and the money arrives',
    async () => {
      const sender = await createFundedCustomer('internal-sender', 300_000, { firstName: 'Dana', lastName: 'Sender' });
      const erin = await createFundedCustomer('internal-recipient', 10_000, { firstName: 'Erin', lastName: 'Example' });
      const erinChecking = accountOf(erin, 'checking');
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, sender);
      await chooseOtherBankTransfer(page);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-10-other-bank-form');

      await page.getByRole('radio', { name: /^This bank/ }).check();
      await page.getByRole('textbox', { name: 'Account number' }).fill(erinChecking.number);
      // One letter swapped: the payee check offers the name the account really has.
      await page.getByRole('textbox', { name: 'Holder name' }).fill('Erin Exampel');
      await page.getByRole('textbox', { name: 'Amount' }).fill('25');
      await page.getByRole('textbox', { name: 'Message' }).fill('Dinner, thanks');
      await page.getByRole('checkbox', { name: 'Add to favorites' }).check();
      await screenshotBothWidths(page, 'transfers-11-this-bank-form');
      await page.getByRole('button', { name: 'Continue' }).click();

      const confirmation = page.getByRole('dialog', { name: 'Confirm the transfer' });
      await confirmation.getByText('The name is close, but the account is in the name of').waitFor();
      await confirmation.getByText('Erin Example', { exact: true }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-12-payee-close-match');
      await confirmation.getByRole('button', { name: 'Use this name' }).click();
      await confirmation.getByText('The name matches the account.').waitFor();
      expect(await confirmation.getByText('Erin Exampel').count()).toBe(0);
      await screenshotBothWidths(page, 'transfers-13-payee-match');
      await confirmation.getByRole('button', { name: 'Confirm' }).click();

      // The first payment to this payee asks for the code texted to the customer.
      await stepUpDialog(page)
        .getByText(/enter the 6-digit code/i)
        .waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-14-step-up');
      await answerStepUpBySms(page, sender);

      const popup = page.getByRole('dialog', { name: '$25.00 transferred successfully' });
      await popup.waitFor();
      await popup.getByText('Completed', { exact: true }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-15-internal-success');
      await popup.getByRole('button', { name: 'Done' }).click();

      // 'Add to favorites' saved her: the Favorite list offers her now.
      await page.getByRole('switch', { name: 'Favorite list' }).click();
      const favourite = page.getByRole('combobox', { name: 'Favorite' }).locator('option', { hasText: 'Erin Example' });
      await expect.poll(() => favourite.count(), { timeout: settleTimeoutMs }).toBe(1);
      expect(await favourite.textContent()).toContain(erinChecking.number);
      await screenshotBothWidths(page, 'transfers-16-favourites');

      // Erin, in a browser of her own, has the money and a notification saying so.
      const recipient = await openPage(browser());
      await signInPastWelcome(recipient.page, erin);
      await expect.poll(() => figureOnDashboard(recipient.page, 'Easy Checking', 'Balance')).toBe('$125.00');
      await recipient.page.getByRole('row').filter({ hasText: 'Dinner, thanks' }).waitFor();
      const bell = recipient.page.getByRole('link', { name: /^Notifications, [1-9]\d* unread$/ });
      await bell.waitFor();
      await bell.click();
      await heading(recipient.page, 'Notifications');
      await recipient.page.getByRole('heading', { level: 2, name: 'Money received' }).waitFor();
      await recipient.page.getByText('Dana Sender sent you $25.00.').waitFor();
      await expectNoAxeViolations(recipient.page);
      await screenshotBothWidths(recipient.page, 'transfers-17-recipient-notifications');
      expect(recipient.problems).toEqual([]);
      await recipient.context.close();

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'sends money to another bank with a step-up code; it shows Pending, then Completed once the rail settles',
    async () => {
      const customer = await createFundedCustomer('external-transfer', 200_000);
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      await chooseOtherBankTransfer(page);
      expect(await page.getByRole('radio', { name: 'Another bank' }).isChecked()).toBe(true);
      await page.getByRole('textbox', { name: 'Account number' }).fill('123456789');
      await page.getByRole('textbox', { name: 'Holder name' }).fill('Frank Faraway');
      await page.getByRole('textbox', { name: 'Bank name' }).fill('First Federal');
      // The country is chosen from the ISO 3166 list, not typed ("Narnia" is not on it).
      const country = page.getByRole('combobox', { name: 'Country name' });
      expect(await country.getByRole('option', { name: 'Narnia' }).count()).toBe(0);
      await country.selectOption('United States');
      await page.getByRole('textbox', { name: 'Routing number' }).fill('011000015');
      await page.getByRole('textbox', { name: 'Amount' }).fill('40');
      await page.getByRole('textbox', { name: 'Message' }).fill('Rent share');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-20-external-form');
      await page.getByRole('button', { name: 'Continue' }).click();

      const confirmation = page.getByRole('dialog', { name: 'Confirm the transfer' });
      await confirmation.getByText('011000015').waitFor();
      await confirmation.getByText('First Federal').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-21-external-confirm');
      await confirmation.getByRole('button', { name: 'Confirm' }).click();

      await stepUpDialog(page).waitFor();
      const sawPending = popupShowsPending(page);
      await answerStepUpBySms(page, customer);
      const popup = page.getByRole('dialog', { name: /^(Your payment of \$40\.00 is on its way|\$40\.00 transferred successfully$)/ });
      await popup.waitFor();
      await sawPending;
      await screenshotBothWidths(page, 'transfers-22-external-success');
      await popup.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Home' }).click();
      await heading(page, 'Your dashboard');
      const line = page.getByRole('row').filter({ hasText: 'Rent share' });
      await line.getByText('Completed', { exact: true }).waitFor({ timeout: settleTimeoutMs });
      expect(await line.textContent()).toContain('-$40.00');
      await expect.poll(() => figureOnDashboard(page, 'Easy Checking', 'Available balance')).toBe('$1,960.00');
      await screenshotBothWidths(page, 'transfers-23-external-completed');
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'sends money to a card by its number with a step-up code',
    async () => {
      const customer = await createFundedCustomer('card-transfer', 100_000);
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      await page.goto('/send-card');
      await heading(page, 'Send to a card');
      await page.getByRole('textbox', { name: 'Holder name' }).fill('Grace Cardholder');
      await page.getByRole('textbox', { name: 'Card number' }).fill('4111 1111 1111 1111');
      await page.getByText('Card type: Visa').waitFor();
      await page.getByRole('textbox', { name: 'Amount' }).fill('15');
      await page.getByRole('textbox', { name: 'Message' }).fill('Birthday present');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-30-card-form');
      await page.getByRole('button', { name: 'Continue' }).click();

      const confirmation = page.getByRole('dialog', { name: 'Confirm the details' });
      // The number is shown back masked, never in full.
      await confirmation.getByText('Visa •••• 1111').waitFor();
      expect(await confirmation.getByText('4111 1111 1111 1111').count()).toBe(0);
      await screenshotBothWidths(page, 'transfers-31-card-confirm');
      await confirmation.getByRole('button', { name: 'Confirm' }).click();

      await stepUpDialog(page).waitFor();
      await answerStepUpBySms(page, customer);
      const popup = page.getByRole('dialog', { name: /^(\$15\.00 transferred successfully|Your payment of \$15\.00 is on its way)/ });
      await popup.waitFor();
      await popup.getByText(/^(Pending|Completed)$/).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-32-card-success');
      await popup.getByRole('button', { name: 'Done' }).click();
      expect(await page.getByRole('textbox', { name: 'Card number' }).inputValue()).toBe('');
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'says what is wrong with an amount, beside the field, and refuses more than the balance without moving anything',
    async () => {
      const customer = await createFundedCustomer('transfer-input', 5_000);
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      await page.goto('/transfer?to=own');
      await heading(page, 'Transfer within my accounts');
      const amount = page.getByRole('textbox', { name: 'Amount' });

      await amount.fill('0');
      await amount.blur();
      await page.getByText('amount must be more than $0.00').waitFor();
      await amount.fill('1.005');
      await page.getByText('amount cannot have a fraction of a cent').waitFor();
      await amount.fill('abc');
      await page.getByText('Enter an amount like 12.50').waitFor();
      expect(await amount.getAttribute('aria-invalid')).toBe('true');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('Enter an amount like 12.50').waitFor();
      // Between one's own accounts the message is optional: nothing else is asked for.
      expect(await page.getByText('field should not be empty').count()).toBe(0);
      expect(await page.getByRole('dialog').count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-40-own-invalid');

      // The accounts are compared once every field is right on its own.
      await amount.fill('10');
      await page.getByLabel('From account').selectOption(accountOf(customer, 'checking').id);
      await page.getByLabel('To account').selectOption(accountOf(customer, 'checking').id);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('choose an account other than the one you pay from').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);

      // The other-bank form checks the numbers it is given too.
      await chooseOtherBankTransfer(page);
      await page.getByRole('textbox', { name: 'Account number' }).fill('12ab');
      await page.getByRole('textbox', { name: 'Routing number' }).fill('123456789');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('account number is not valid').waitFor();
      await page.getByText('routing number is not valid').waitFor();
      // A SWIFT code is told that this bank does not send money abroad.
      await page.getByRole('textbox', { name: 'Routing number' }).fill('DEUTDEFF500');
      await page.getByText(/^International transfers are not offered yet/).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await screenshotBothWidths(page, 'transfers-41-other-bank-invalid');

      // $75.00 out of $50.00: the form says so before Confirm (it knows the available balance), and no balance changes.
      await page.goto('/transfer?to=own');
      await heading(page, 'Transfer within my accounts');
      await page.getByLabel('From account').selectOption(accountOf(customer, 'checking').id);
      await page.getByLabel('To account').selectOption(accountOf(customer, 'savings').id);
      await page.getByRole('textbox', { name: 'Amount' }).fill('75');
      await page.getByRole('textbox', { name: 'Message' }).fill('More than I have');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('Insufficient funds: Easy Checking has $50.00 available. Enter a smaller amount or choose another account.').waitFor();
      expect(await page.getByRole('textbox', { name: 'Amount' }).getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByRole('dialog').count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'transfers-42-insufficient-funds');

      const accounts = accountListSchema.parse(await (await page.request.get('/api/v1/accounts')).json());
      const balances = Object.fromEntries(accounts.map((account) => [account.type, [account.balanceCents, account.availableCents]]));
      expect(balances).toEqual({ checking: [5_000, 5_000], savings: [0, 0] });
      await page.goto('/dashboard');
      await expect.poll(() => figureOnDashboard(page, 'Easy Checking', 'Balance')).toBe('$50.00');
      expect(await page.getByRole('row').filter({ hasText: 'More than I have' }).count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );
});
