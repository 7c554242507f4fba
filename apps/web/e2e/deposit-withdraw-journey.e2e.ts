import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { accountListSchema, type Account } from '@strongroom/contracts/accounts.ts';
import { expectNoAxeViolations, openPage, viewports, useBrowser } from './support/browser.ts';
import {
  accountOf,
  createFundedCustomer,
  heading,
  linkVerifiedFundingSource,
  lookOnDashboard,
  readStepUpCode,
  signInPastWelcome,
  unreadCount,
  type FundedCustomer,
} from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** A journey signs in, moves money, waits for the rail and reads the dashboard again. */
const journeyTimeoutMs = 240_000;
/** RAIL_SPEED=instant settles within a second; the deposit popup reads the status every 2 s. */
const settleTimeoutMs = 45_000;

/** Balance and available balance as the dashboard's card of that account shows them. */
async function dashboardFigures(page: Page, accountName: string): Promise<{ balance: string; available: string }> {
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: accountName }) });
  const figure = (term: string) =>
    lookOnDashboard(page, (timeout) => card.getByText(term, { exact: true }).locator('xpath=following-sibling::dd').textContent({ timeout }));
  return { balance: (await figure('Balance')) ?? '', available: (await figure('Available balance')) ?? '' };
}

/** Every list of accounts the page received, so a journey can say what the customer could have seen. */
function recordAccountLists(page: Page): Account[][] {
  const lists: Account[][] = [];
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname !== '/api/v1/accounts' || response.status() !== 200) return;
    lists.push(accountListSchema.parse(await response.json()));
  });
  return lists;
}

interface WithdrawalDetails {
  amount: string;
  accountNumber: string;
}

async function fillWithdrawal(page: Page, customer: FundedCustomer, details: WithdrawalDetails): Promise<void> {
  const form = page.getByRole('form', { name: 'Withdraw' });
  await form.getByLabel('Amount').fill(details.amount);
  // Without a verified linked bank the account is typed; the country is chosen from the ISO list.
  expect(await form.getByRole('combobox', { name: 'To' }).inputValue()).toBe('typed');
  await form.getByRole('combobox', { name: 'Country' }).selectOption('United States');
  await form.getByRole('combobox', { name: 'State name' }).selectOption('New York');
  await form.getByLabel('Bank name').fill('Hudson Valley Credit Union');
  await form.getByLabel('Bank address').fill('12 State Street, Albany, NY 12207');
  await form.getByLabel('Account name').fill(`${customer.firstName} ${customer.lastName}`);
  await form.getByLabel('Account number').fill(details.accountNumber);
  await form.getByLabel('Routing number').fill('011000015');
}

/** At 390 px the page is no wider than the phone: nothing to scroll sideways. */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  await page.setViewportSize(viewports.phone);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.phone.width);
  await page.setViewportSize(viewports.desktop);
}

/** Submits the filled form, enters the code sent to the customer's phone, and waits for the result popup. */
/**
 * Enters the step-up code and answers the status the API gave the withdrawal. The popup then
 * follows the payment live, so on the instant rail it may already show the settled status.
 */
async function confirmWithCode(page: Page, customer: FundedCustomer, screenshotName?: string): Promise<string> {
  await page.getByRole('form', { name: 'Withdraw' }).getByRole('button', { name: 'Continue' }).click();
  // The review before Confirm, as transfers have (decision 060).
  const review = page.getByRole('dialog', { name: 'Confirm the withdrawal' });
  await review.waitFor();
  if (screenshotName) {
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, `${screenshotName}-review`);
    await expectNoSidewaysScroll(page);
  }
  await review.getByRole('button', { name: 'Confirm' }).click();
  const stepUp = page.getByRole('dialog', { name: 'Confirm it’s you' });
  await stepUp.waitFor();
  await stepUp.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor();
  if (screenshotName) {
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, screenshotName);
  }
  const code = await readStepUpCode(customer);
  const created = page.waitForResponse((response) => response.url().endsWith('/api/v1/withdrawals') && response.status() === 201);
  await stepUp.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  // The sixth digit sends the code by itself.
  await page.keyboard.type(code);
  // On the instant rail a withdrawal to an account that does not exist may already be back when
  // the popup shows (on a loaded machine it often is): "was returned" is a result too.
  await page.getByRole('dialog', { name: /^(Withdrawal successful|Your withdrawal of \$[\d,.]+ (is on its way|was returned))/ }).waitFor();
  return ((await (await created).json()) as { transfer: { status: string } }).transfer.status;
}

describe.skipIf(!inject('chromiumPath'))('moving money in and out', () => {
  const browser = useBrowser();

  it(
    'deposits into savings after refusing bad amounts, follows the deposit until it clears, and shows the new balance and a notification',
    async () => {
      const customer = await createFundedCustomer('deposit', 100_000, { firstName: 'Dana' });
      const checking = accountOf(customer, 'checking');
      const savings = accountOf(customer, 'savings');
      const { context, page, problems } = await openPage(browser());
      const deposits: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/api/v1/deposits')) deposits.push(request.url());
      });
      await signInPastWelcome(page, customer);
      // A deposit pulls from a verified account at another bank (decision 021); linking one has a
      // journey of its own, so here it is done through the API, with the code and amounts texted.
      const source = await linkVerifiedFundingSource(page, customer);
      // Read again, so the bell counts the link's notifications before the deposit's.
      await page.reload();
      await heading(page, 'Your dashboard');
      await page.getByRole('heading', { level: 3, name: 'Standard Savings' }).waitFor();
      expect(await dashboardFigures(page, 'Standard Savings')).toEqual({ balance: '$0.00', available: '$0.00' });
      const unreadBefore = await unreadCount(page);

      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Deposit' }).click();
      await heading(page, 'Deposit');
      const form = page.getByRole('form', { name: 'Deposit' });
      const accountType = form.getByRole('textbox', { name: 'Account type' });
      const accountNumber = form.getByRole('textbox', { name: 'Account number' });
      // The only verified account at another bank and the first account are chosen already; the
      // account's type and number are shown and cannot be edited.
      expect(await form.getByRole('combobox', { name: 'From' }).inputValue()).toBe(source.id);
      expect(await form.getByRole('combobox', { name: 'Account' }).inputValue()).toBe(checking.id);
      expect(await accountType.inputValue()).toBe('Checking');
      expect(await accountNumber.inputValue()).toBe(checking.number);
      expect(await accountType.getAttribute('readonly')).not.toBeNull();
      expect(await accountNumber.getAttribute('readonly')).not.toBeNull();
      await form.getByRole('combobox', { name: 'Account' }).selectOption(savings.id);
      expect(await accountType.inputValue()).toBe('Savings');
      expect(await accountNumber.inputValue()).toBe(savings.number);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'deposit-01-form');

      // Each bad amount is refused beside the field, and nothing is sent.
      const amount = form.getByRole('textbox', { name: 'Amount' });
      const submit = form.getByRole('button', { name: 'Deposit' });
      await submit.click();
      expect(await form.getByText('field should not be empty').count()).toBe(2);
      for (const [typed, message] of [
        ['0', 'amount must be more than $0.00'],
        ['abc', 'Enter an amount like 12.50'],
        ['1.005', 'amount cannot have a fraction of a cent'],
      ] as const) {
        await amount.fill(typed);
        await submit.click();
        await form.getByText(message).waitFor();
        expect(await amount.getAttribute('aria-invalid')).toBe('true');
      }
      // The seed's words stay as they are; on screen each message starts with a capital letter.
      const firstLetter = await form
        .locator('.field__error-text')
        .first()
        .evaluate((element) => getComputedStyle(element, '::first-letter').textTransform);
      expect(firstLetter).toBe('uppercase');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'deposit-02-invalid');
      expect(deposits).toEqual([]);

      // The popup's reads of the deposit wait until it has been checked and photographed while
      // pending: the instant rail would otherwise settle it within the 2 s before the first read.
      const followRead = /\/api\/v1\/transfers\/[^/]+$/;
      let releaseFollowReads = () => {};
      const followReadsReleased = new Promise<void>((resolve) => {
        releaseFollowReads = resolve;
      });
      await page.route(followRead, async (route) => {
        await followReadsReleased;
        await route.continue();
      });
      await amount.fill('250.75');
      await form.getByRole('textbox', { name: 'Reason' }).fill('Birthday money');
      await submit.click();
      // Received, not successful, until it has cleared; the popup then says so.
      const result = page.getByRole('dialog', { name: /^Deposit (received|was successful)/ });
      await page.getByRole('dialog', { name: /^Deposit received: it clears by [A-Z][a-z]{2} \d{1,2}, \d{4}$/ }).waitFor();
      await result.getByText('Pending', { exact: true }).waitFor();
      await result.getByText(/^Available on /).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'deposit-03-pending');
      // From now on the reads go straight through.
      releaseFollowReads();
      // The popup reads the deposit again until the rail has settled it.
      await result.getByText('Completed', { exact: true }).waitFor({ timeout: settleTimeoutMs });
      await result.getByText('The money has moved.').waitFor();
      await page.getByRole('dialog', { name: 'Deposit was successful' }).waitFor();
      await screenshotBothWidths(page, 'deposit-04-completed');
      await result.getByRole('button', { name: 'Done' }).click();
      expect(deposits).toHaveLength(1);
      // The form is empty again, ready for another deposit.
      expect(await amount.inputValue()).toBe('');

      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Home' }).click();
      await heading(page, 'Your dashboard');
      await expect.poll(() => dashboardFigures(page, 'Standard Savings'), { timeout: settleTimeoutMs }).toEqual({ balance: '$250.75', available: '$250.75' });
      expect(await dashboardFigures(page, 'Easy Checking')).toEqual({ balance: '$1,000.00', available: '$1,000.00' });
      await expect.poll(() => unreadCount(page), { timeout: settleTimeoutMs }).toBe(unreadBefore + 1);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'deposit-05-dashboard');

      await page
        .getByRole('banner')
        .getByRole('link', { name: /^Notifications/ })
        .click();
      await heading(page, 'Notifications');
      const cleared = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Deposit cleared' }) });
      await cleared.getByText('Your deposit of $250.75 has cleared and is available.').waitFor();
      await expect.poll(() => unreadCount(page)).toBe(0);

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'withdraws to an account typed by hand after asking for its fields, a review and a code, reserving the money while pending and taking it on settlement',
    async () => {
      const customer = await createFundedCustomer('withdraw', 200_000, { firstName: 'Wren' });
      const checking = accountOf(customer, 'checking');
      const { context, page, problems } = await openPage(browser());
      const accountLists = recordAccountLists(page);
      await signInPastWelcome(page, customer);
      await page.getByRole('heading', { level: 3, name: 'Easy Checking' }).waitFor();
      expect(await dashboardFigures(page, 'Easy Checking')).toEqual({ balance: '$2,000.00', available: '$2,000.00' });

      await page.goto('/withdraw');
      await heading(page, 'Withdraw');
      const form = page.getByRole('form', { name: 'Withdraw' });
      const source = form.getByRole('combobox', { name: 'Source account' });
      await source.waitFor();
      // The source account is chosen already, and the country (United States); the other seven fields are empty, and each says so.
      expect(await source.inputValue()).toBe(checking.id);
      expect(await form.getByRole('combobox', { name: 'Country' }).inputValue()).toBe('United States');
      expect(await form.getByRole('option', { name: 'Narnia' }).count()).toBe(0);
      expect(await form.getByText('Route number').count()).toBe(0);
      await form.getByRole('button', { name: 'Continue' }).click();
      await form.getByText('field should not be empty').first().waitFor();
      expect(await form.getByText('field should not be empty').count()).toBe(7);
      for (const label of ['Amount', 'State name', 'Bank name', 'Bank address', 'Account name', 'Account number', 'Routing number']) {
        expect(await form.getByLabel(label).getAttribute('aria-invalid'), label).toBe('true');
      }
      // A SWIFT code is told why it cannot work: this bank pays US banks only.
      await form.getByLabel('Routing number').fill('DEUTDEFF500');
      await form.getByLabel('Routing number').blur();
      await form.getByText(/^International transfers are not offered yet/).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'withdraw-01-empty');

      await fillWithdrawal(page, customer, { amount: '300.00', accountNumber: '123456789' });
      expect(await form.getByText('field should not be empty').count()).toBe(0);
      const listsBeforeSubmit = accountLists.length;
      expect(await confirmWithCode(page, customer, 'withdraw-02-step-up')).toBe('pending');
      const result = page.getByRole('dialog', { name: /^(Withdrawal successful$|Your withdrawal of \$[\d,.]+ is on its way)/ });
      await result.getByText(/^(Pending|Completed)$/).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'withdraw-03-success');
      await result.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Home' }).click();
      await heading(page, 'Your dashboard');
      await expect.poll(() => dashboardFigures(page, 'Easy Checking'), { timeout: settleTimeoutMs }).toEqual({ balance: '$1,700.00', available: '$1,700.00' });
      await screenshotBothWidths(page, 'withdraw-04-dashboard');

      // What the page was told after the withdrawal was made: the available balance went down at
      // once, the balance only when the rail settled. The instant rail settles within a second, so
      // the pending state may or may not have been caught in between; never the reverse.
      const pending = { balanceCents: 200_000, availableCents: 170_000 };
      const settled = { balanceCents: 170_000, availableCents: 170_000 };
      const seen = accountLists.slice(listsBeforeSubmit).map((list) => {
        const account = list.find((item) => item.id === checking.id);
        return { balanceCents: account?.balanceCents, availableCents: account?.availableCents };
      });
      expect(seen.length).toBeGreaterThan(0);
      for (const figures of seen) expect([pending, settled]).toContainEqual(figures);
      expect(seen.at(-1)).toEqual(settled);

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'withdraws to a verified linked bank without typing it again, says insufficient funds before Confirm, and reviews it at 390 px',
    async () => {
      const customer = await createFundedCustomer('withdraw-linked', 50_000, { firstName: 'Lina' });
      const { context, page, problems } = await openPage(browser());
      const withdrawals: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/api/v1/withdrawals')) withdrawals.push(request.postData() ?? '');
      });
      await signInPastWelcome(page, customer);
      const source = await linkVerifiedFundingSource(page, customer);

      await page.goto('/withdraw');
      await heading(page, 'Withdraw');
      const form = page.getByRole('form', { name: 'Withdraw' });
      const to = form.getByRole('combobox', { name: 'To' });
      await to.waitFor();
      expect(await to.inputValue()).toBe(source.id);
      expect(await form.getByLabel('Bank address').count()).toBe(0);
      expect(await form.getByRole('combobox', { name: 'Country' }).count()).toBe(0);

      await form.getByLabel('Amount').fill('500.01');
      await form.getByRole('button', { name: 'Continue' }).click();
      await form.getByText('Insufficient funds: Easy Checking has $500.00 available. Enter a smaller amount or choose another account.').waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await form.getByLabel('Amount').fill('120');
      expect(await confirmWithCode(page, customer, 'withdraw-07-linked')).toBe('pending');
      expect(withdrawals.length).toBeGreaterThan(0);
      for (const body of withdrawals)
        expect(JSON.parse(body)).toEqual({ fromAccountId: accountOf(customer, 'checking').id, amountCents: 12_000, fundingSourceId: source.id });

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'gives the money back when the receiving bank returns a withdrawal to an account number ending in 0000, and says so',
    async () => {
      const customer = await createFundedCustomer('withdraw-returned', 100_000, { firstName: 'Remy' });
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      await page.getByRole('heading', { level: 3, name: 'Easy Checking' }).waitFor();
      const unreadBefore = await unreadCount(page);

      await page.goto('/withdraw');
      await heading(page, 'Withdraw');
      await fillWithdrawal(page, customer, { amount: '400.00', accountNumber: '9876540000' });
      expect(await confirmWithCode(page, customer)).toBe('pending');
      const result = page.getByRole('dialog', { name: /^(Withdrawal successful$|Your withdrawal of \$[\d,.]+ (is on its way|was returned))/ });
      await result.getByText(/^(Pending|Returned)$/).waitFor();
      await result.getByRole('button', { name: 'Done' }).click();

      // The bell counts 'Payment on its way', then the return, as they arrive.
      await expect.poll(() => unreadCount(page), { timeout: settleTimeoutMs }).toBe(unreadBefore + 2);
      await page
        .getByRole('banner')
        .getByRole('link', { name: /^Notifications/ })
        .click();
      await heading(page, 'Notifications');
      const returned = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Payment returned' }) });
      await returned
        .getByText(
          `Your payment of $400.00 to ${customer.firstName} ${customer.lastName} was returned by the receiving bank: no account with this number (R03). The money is back in your account.`,
        )
        .waitFor();
      expect(await page.getByRole('heading', { level: 2, name: 'Payment on its way' }).count()).toBe(1);
      expect(await page.getByRole('heading', { level: 2, name: 'Payment delivered' }).count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'withdraw-05-returned-notification');

      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Home' }).click();
      await heading(page, 'Your dashboard');
      await expect.poll(() => dashboardFigures(page, 'Easy Checking'), { timeout: settleTimeoutMs }).toEqual({ balance: '$1,000.00', available: '$1,000.00' });
      await screenshotBothWidths(page, 'withdraw-06-returned-dashboard');

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );
});
