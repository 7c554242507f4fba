import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { accountListSchema, type Account } from '@strongroom/contracts/accounts.ts';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import {
  accountOf,
  createFundedCustomer,
  figureOnDashboard,
  heading,
  otherBankAccount,
  readMicroDepositCents,
  readStepUpCode,
  signInPastWelcome,
} from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** The journey signs in, links and verifies an account, deposits and waits for the rail. */
const journeyTimeoutMs = 240_000;
/** RAIL_SPEED=instant settles within a second; the deposit popup reads the status every 2 s. */
const settleTimeoutMs = 45_000;

/** Every list of accounts the page received, so the journey can say what the customer could have seen. */
function recordAccountLists(page: Page): Account[][] {
  const lists: Account[][] = [];
  page.on('response', async (response) => {
    if (new URL(response.url()).pathname !== '/api/v1/accounts' || response.status() !== 200) return;
    lists.push(accountListSchema.parse(await response.json()));
  });
  return lists;
}

/** Cents as the verify form asks for them: the two digits after a printed "$0.". */
function twoDigits(cents: number): string {
  return String(cents).padStart(2, '0');
}

describe.skipIf(!inject('chromiumPath'))('deposits from a verified account at another bank', () => {
  const browser = useBrowser();

  it(
    'links an account after a code, verifies it with the two texted amounts after a wrong pair, deposits from it and sees the money arrive',
    async () => {
      const customer = await createFundedCustomer('funding-sources', 100_000, { firstName: 'Dana', lastName: 'Demo' });
      const checking = accountOf(customer, 'checking');
      const { context, page, problems } = await openPage(browser());
      const accountLists = recordAccountLists(page);
      await signInPastWelcome(page, customer);
      await page.getByRole('heading', { level: 3, name: 'Easy Checking' }).waitFor();

      // Without a verified account at another bank there is nothing to deposit from: the page says so.
      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Deposit' }).click();
      await heading(page, 'Deposit');
      await page.getByRole('heading', { level: 2, name: 'No account to deposit from yet' }).waitFor();
      expect(await page.getByRole('form', { name: 'Deposit' }).count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-01-deposit-without-source');

      await page.getByRole('main').getByRole('link', { name: 'Your other banks' }).click();
      await heading(page, 'Your other banks');
      expect(new URL(page.url()).pathname).toBe('/deposit/sources');
      await page.getByRole('heading', { level: 3, name: 'No accounts linked yet' }).waitFor();
      const linkForm = page.getByRole('form', { name: 'Link an account' });
      expect(await linkForm.getByRole('textbox', { name: 'Account holder name' }).inputValue()).toBe('Dana Demo');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-02-empty');

      // The routing number is checked (ABA checksum) before anything is sent.
      await linkForm.getByRole('textbox', { name: 'Account number' }).fill(otherBankAccount.accountNumber);
      const routeNumber = linkForm.getByRole('textbox', { name: 'Routing number' });
      await routeNumber.fill('011000016');
      await linkForm.getByRole('button', { name: 'Link account' }).click();
      await linkForm.getByText('routing number is not valid').waitFor();
      expect(await routeNumber.getAttribute('aria-invalid')).toBe('true');
      await routeNumber.fill(otherBankAccount.routeNumber);

      // A code first (D10): linking lets money be pulled from that account.
      await linkForm.getByRole('button', { name: 'Link account' }).click();
      const stepUp = page.getByRole('dialog', { name: 'Confirm it’s you' });
      await stepUp.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor();
      await stepUp.getByText(/only for linking this account\./).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-03-step-up');
      const code = await readStepUpCode(customer);
      await stepUp.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
      await page.keyboard.type(code);

      // Linked: the two deposits are on their way, and in the sandbox they are texted.
      await page.getByText('Dana Demo · Checking •••• 0055 is linked.').waitFor();
      const inboxLink = page.getByRole('status').getByRole('link', { name: 'sandbox inbox at /dev/mail' });
      expect(await inboxLink.getAttribute('href')).toBe(`/dev/mail?to=${encodeURIComponent(customer.phone)}`);
      const entry = page.getByRole('listitem').filter({ hasText: 'Checking •••• 0055' });
      await entry.getByText('Waiting for the two small deposits').waitFor();
      await entry.getByText(/3 tries left\.$/).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-04-linked');

      // A wrong pair uses a try and says how many are left; the right one, in either order, verifies.
      const [first, second] = await readMicroDepositCents(customer);
      const verifyForm = page.getByRole('form', { name: 'Verify Dana Demo · Checking •••• 0055' });
      await verifyForm.getByRole('textbox', { name: 'First amount' }).fill(twoDigits(first));
      await verifyForm.getByRole('textbox', { name: 'Second amount' }).fill(twoDigits((second % 99) + 1));
      await verifyForm.getByRole('button', { name: 'Verify' }).click();
      await verifyForm.getByText('Those amounts are not right. 2 tries left.').waitFor();
      await entry.getByText(/In either order\. 2 tries left\.$/).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-05-wrong-amounts');

      await verifyForm.getByRole('textbox', { name: 'First amount' }).fill(twoDigits(second));
      await verifyForm.getByRole('textbox', { name: 'Second amount' }).fill(twoDigits(first));
      await verifyForm.getByRole('button', { name: 'Verify' }).click();
      await entry.getByText('Verified', { exact: true }).waitFor();
      await page.getByText('Dana Demo · Checking •••• 0055 is verified. You can deposit from it now.').waitFor();
      expect(await verifyForm.count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-06-verified');

      // Deposit $200 from it.
      await entry.getByRole('link', { name: 'Deposit from Dana Demo, Checking •••• 0055' }).click();
      await heading(page, 'Deposit');
      const form = page.getByRole('form', { name: 'Deposit' });
      const from = form.getByRole('combobox', { name: 'From' });
      expect(await from.locator('option:checked').textContent()).toBe('Dana Demo · Checking •••• 0055');
      expect(await form.getByRole('combobox', { name: 'Account' }).inputValue()).toBe(checking.id);
      await form.getByRole('textbox', { name: 'Amount' }).fill('200');
      await form.getByRole('textbox', { name: 'Reason' }).fill('From my other bank');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-07-deposit-form');

      // The popup's reads of the deposit wait until it has been seen and photographed while
      // pending: the instant rail settles it before the first read would otherwise come.
      const followRead = /\/api\/v1\/transfers\/[^/]+$/;
      let releaseFollowReads = () => {};
      const followReadsReleased = new Promise<void>((resolve) => {
        releaseFollowReads = resolve;
      });
      await page.route(followRead, async (route) => {
        await followReadsReleased;
        await route.continue();
      });
      const created = page.waitForResponse((response) => response.url().endsWith('/api/v1/deposits') && response.status() === 201);
      const listsBeforeDeposit = accountLists.length;
      await form.getByRole('button', { name: 'Deposit' }).click();
      const answer = (await (await created).json()) as {
        transfer: { status: string; expectedSettlementAt: string | null; counterparty: { name: string; accountNumber: string } };
      };
      expect(answer.transfer.status).toBe('pending');
      expect(answer.transfer.expectedSettlementAt).not.toBeNull();
      expect(answer.transfer.counterparty).toMatchObject({ name: 'Dana Demo', accountNumber: '•••• 0055' });
      const received = page.getByRole('dialog', { name: /^Deposit received: it clears by [A-Z][a-z]{2} \d{1,2}, \d{4}$/ });
      await received.getByText('Pending', { exact: true }).waitFor();
      await received.getByText(/^Available on [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/).waitFor();
      expect(await received.getByText(/successful/).count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-08-deposit-received');
      releaseFollowReads();
      const cleared = page.getByRole('dialog', { name: 'Deposit was successful' });
      await cleared.getByText('Completed', { exact: true }).waitFor({ timeout: settleTimeoutMs });
      await screenshotBothWidths(page, 'sources-09-deposit-cleared');
      await cleared.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Home' }).click();
      await heading(page, 'Your dashboard');
      await expect.poll(() => figureOnDashboard(page, 'Easy Checking', 'Balance'), { timeout: settleTimeoutMs }).toBe('$1,200.00');
      expect(await figureOnDashboard(page, 'Easy Checking', 'Available balance')).toBe('$1,200.00');
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: 'Easy Checking' }) });
      expect(await card.getByText('On its way', { exact: true }).count()).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'sources-10-dashboard');

      // What the page was told after the deposit was made: on its way beside the balance (not in
      // it) until it cleared, then in the balance. The instant rail clears it at once, so the
      // pending answer may never be seen; a deposit counted twice, or spendable early, never.
      const pending = { balanceCents: 100_000, availableCents: 100_000, pendingDepositsCents: 20_000 };
      const settled = { balanceCents: 120_000, availableCents: 120_000, pendingDepositsCents: 0 };
      const seen = accountLists.slice(listsBeforeDeposit).map((list) => {
        const account = list.find((item) => item.id === checking.id);
        return { balanceCents: account?.balanceCents, availableCents: account?.availableCents, pendingDepositsCents: account?.pendingDepositsCents };
      });
      expect(seen.length).toBeGreaterThan(0);
      for (const figures of seen) expect([pending, settled]).toContainEqual(figures);
      expect(seen.at(-1)).toEqual(settled);

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );
});
