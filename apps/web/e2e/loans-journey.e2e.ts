import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { accountListSchema } from '@strongroom/contracts/accounts.ts';
import { openPage, viewports, useBrowser } from './support/browser.ts';
import { accountOf, createFundedCustomer, heading, runOps, signInPastWelcome } from './support/money.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { screenshotWidths } from './support/screenshots.ts';

/** Apply for a loan, a member of operations approves it in the console, the money arrives, the customer pays some back early. */
const journeyTimeoutMs = 180_000;

/** Full-page pictures at the given widths, for a person to look at (the customer: 390 and 1280; the console: 768 and 1280). */
function screenshots(page: Page, name: string, widths: readonly number[]): Promise<void> {
  return screenshotWidths(page, 'loans', name, { widths });
}

async function checkingBalanceCents(page: Page): Promise<number> {
  const accounts = accountListSchema.parse(await (await page.request.get('/api/v1/accounts')).json());
  const checking = accounts.find((account) => account.type === 'checking');
  if (!checking) throw new Error('no checking account');
  return checking.balanceCents;
}

describe.skipIf(!inject('chromiumPath'))('a loan from application to early repayment', () => {
  const browser = useBrowser();

  it(
    'a customer applies with an estimate, operations approves an offer in the console, the customer reads its terms and accepts, the money arrives in checking, and an early payment lowers the balance',
    async () => {
      const borrower = await createFundedCustomer('loan-borrower', 100_000, { firstName: 'Lena', lastName: 'Borrower' });
      const customer = await openPage(browser());
      await signInPastWelcome(customer.page, borrower);

      // The application.
      await customer.page.goto('/loan');
      await heading(customer.page, 'Loans');
      expect(await customer.page.getByRole('textbox', { name: 'Full name' }).inputValue()).toBe('Lena Borrower');
      await customer.page.getByRole('button', { name: 'Send application' }).click();
      expect(await customer.page.getByText('field should not be empty').count()).toBe(7);
      await customer.page.getByRole('combobox', { name: /Marital status/ }).selectOption('single');
      await customer.page.getByRole('textbox', { name: /^Occupation/ }).fill('Carpenter');
      await customer.page.getByRole('textbox', { name: /^Address/ }).fill('12 Oak Lane, Springfield');
      await customer.page.getByRole('textbox', { name: /^Desired amount/ }).fill('50');
      await customer.page.getByRole('textbox', { name: /^Duration in months/ }).fill('twelve');
      await customer.page.getByRole('textbox', { name: /^Annual income/ }).fill('60,000');
      await customer.page.getByRole('textbox', { name: /^Purpose/ }).fill('A workshop lathe');
      await customer.page.getByRole('button', { name: 'Send application' }).click();
      await customer.page.getByText('the amount is $500 to $100,000').waitFor();
      await customer.page.getByText('number is not valid').waitFor();
      await customer.page.getByRole('textbox', { name: /^Desired amount/ }).fill('5,000');
      await customer.page.getByRole('textbox', { name: /^Duration in months/ }).fill('12');
      // The estimate before anything is sent: the range, and $5,000.00 over 12 months at the rate for this income (7.99%).
      const estimate = customer.page.getByRole('region', { name: 'Estimate' });
      await estimate.getByText('$434.92', { exact: true }).waitFor();
      await estimate.getByText(/This is an estimate, not an offer/).waitFor();
      await screenshots(customer.page, 'loans-01-application', [viewports.phone.width, viewports.desktop.width]);
      await customer.page.getByRole('button', { name: 'Send application' }).click();
      await customer.page.getByText('Loan application sent').waitFor();
      await customer.page.getByRole('heading', { name: 'Your application is waiting for a decision' }).waitFor();
      await screenshots(customer.page, 'loans-02-waiting', [viewports.phone.width, viewports.desktop.width]);

      // Operations decides in the console.
      const officer = await createStaff('loan-officer', 'operations');
      const staff = await openPage(browser());
      await staffSignIn(staff.page, officer);
      await staff.page
        .getByRole('navigation')
        .getByRole('link', { name: /Loan applications/ })
        .click();
      await heading(staff.page, 'Loan applications');
      await staff.page.getByRole('button', { name: "Review Lena Borrower's application for $5,000.00" }).click();
      await staff.page.getByRole('textbox', { name: /^APR/ }).fill('9.5');
      await staff.page.getByRole('textbox', { name: /^Term/ }).fill('12');
      await staff.page.getByRole('textbox', { name: /^Reason for approval/ }).fill('Steady income; payment under 10% of it');
      await screenshots(staff.page, 'loans-03-console-queue', [768, viewports.desktop.width]);
      await staff.page.getByRole('button', { name: 'Approve $5,000.00' }).click();
      const confirmation = staff.page.getByRole('dialog', { name: 'Approve and offer $5,000.00 to Lena Borrower?' });
      // $5,000.00 at 9.5% over 12 months: 438.42 a month.
      await confirmation.getByText('$438.42').waitFor();
      await screenshots(staff.page, 'loans-04-console-confirm', [768, viewports.desktop.width]);
      await confirmation.getByRole('button', { name: 'Approve and offer $5,000.00' }).click();
      await confirmation
        .getByText('Lena Borrower is offered $5,000.00. Nothing is paid until they accept; the offer lapses in 30 days. The customer is told.')
        .waitFor();
      await confirmation.getByRole('button', { name: 'Done' }).click();
      // Its row leaves the queue (other journeys on this server may leave applications of their own waiting).
      await staff.page.getByRole('button', { name: "Review Lena Borrower's application for $5,000.00" }).waitFor({ state: 'detached' });

      // The customer's page changes by itself when the decision's notification arrives: an offer, and no money yet (decision 058).
      await customer.page.getByRole('heading', { name: 'Your loan offer is waiting for your answer' }).waitFor();
      expect(await checkingBalanceCents(customer.page)).toBe(100_000);
      await customer.page.getByRole('link', { name: 'Read the offer, then accept or decline it' }).click();
      await heading(customer.page, 'Loan of $5,000.00');
      const disclosure = customer.page.locator('.disclosure');
      await disclosure.getByRole('heading', { name: 'Truth in Lending disclosure' }).waitFor();
      await customer.page.getByText('Before you accept, here is what this loan would cost you').waitFor();
      const offer = customer.page.getByRole('region', { name: 'Your loan offer' });
      await offer.getByText('$438.42').waitFor();
      await offer.getByText('Answer by').waitFor();
      await screenshots(customer.page, 'loans-05-offer', [viewports.phone.width, viewports.desktop.width]);
      await offer.getByRole('button', { name: 'Accept offer' }).click();
      const accept = customer.page.getByRole('dialog', { name: 'Accept the loan of $5,000.00?' });
      await accept.getByRole('button', { name: 'Accept and pay out $5,000.00' }).click();
      await customer.page.getByText('You accepted the loan. $5,000.00 was paid into your checking account.').waitFor();
      await expect.poll(() => checkingBalanceCents(customer.page)).toBe(600_000);
      await customer.page.getByText('Before your first payment').waitFor();
      // The disclosed APR comes from the schedule (actuarial method): within 1/8 point of the 9.50% note rate.
      const disclosedApr = await disclosure.locator('dt', { hasText: 'Annual percentage rate' }).locator('xpath=following-sibling::dd[1]').textContent();
      expect(Math.abs(Number.parseFloat(disclosedApr ?? '') - 9.5)).toBeLessThanOrEqual(0.125);
      await disclosure.locator('dt', { hasText: 'Amount financed' }).locator('xpath=following-sibling::dd[1]').getByText('$5,000.00').waitFor();
      const schedule = customer.page.getByRole('table', { name: 'Payment schedule' });
      expect(await schedule.getByRole('row').count()).toBe(13);
      expect(await schedule.getByText('$438.42').count()).toBeGreaterThanOrEqual(11);
      await screenshots(customer.page, 'loans-05-loan-page', [viewports.phone.width, viewports.desktop.width]);

      // An early payment of $1,000.00 from checking: principal first.
      const form = customer.page.getByRole('form', { name: 'Pay early' });
      await form.getByRole('combobox', { name: 'From account' }).selectOption(accountOf(borrower, 'checking').id);
      await form.getByRole('textbox', { name: /^Amount/ }).fill('1,000');
      await form.getByRole('button', { name: 'Review payment' }).click();
      const pay = customer.page.getByRole('dialog', { name: 'Pay $1,000.00 to your loan?' });
      await pay.getByText('You will owe $4,000.00 after it.').waitFor();
      await pay.getByRole('button', { name: 'Pay $1,000.00' }).click();
      await customer.page.getByText('You paid $1,000.00. You now owe $4,000.00.').waitFor();
      await expect.poll(() => checkingBalanceCents(customer.page)).toBe(500_000);
      await screenshots(customer.page, 'loans-06-after-early-payment', [viewports.phone.width, viewports.desktop.width]);

      const ledger = await runOps('check-ledger', []);
      expect(ledger.exitCode, ledger.output).toBe(0);
      expect(customer.problems).toEqual([]);
      expect(staff.problems).toEqual([]);
      for (const opened of [customer, staff]) await opened.context.close();
    },
    journeyTimeoutMs,
  );
});
