import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { csrfHeaderName, secureStaffCsrfCookieName, staffCsrfCookieName } from '@strongroom/contracts/http.ts';
import { paymentListSchema } from '@strongroom/contracts/payments.ts';
import { openPage, useBrowser } from './support/browser.ts';
import { accountOf, answerStepUpBySms, createFundedCustomer, heading, signInPastWelcome } from './support/money.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** A customer's payment, two staff members in their own browsers, each signing in with a code. */
const journeyTimeoutMs = 180_000;

async function decide(page: Page, action: 'Approve release (first of two)' | 'Release', reason: string): Promise<void> {
  await page.getByRole('button', { name: action }).click();
  const dialog = page.getByRole('dialog', { name: 'Release $50,000.00 to Rosa Receiver?' });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await dialog.getByRole('button', { name: 'Release' }).click();
}

describe.skipIf(!inject('chromiumPath'))('a four-eyes release in the console', () => {
  const browser = useBrowser();

  it(
    'holds a $50,000 payment; one compliance officer approves, cannot complete it alone, and a second one releases it',
    async () => {
      const sender = await createFundedCustomer('four-eyes-sender', 6_000_000, { firstName: 'Hugo', lastName: 'Holder' });
      const recipient = await createFundedCustomer('four-eyes-recipient', 10_000, { firstName: 'Rosa', lastName: 'Receiver' });
      const customer = await openPage(browser());
      await signInPastWelcome(customer.page, sender);
      await customer.page.goto('/transfer?to=other');
      await heading(customer.page, 'Transfer to other bank');
      await customer.page.getByRole('radio', { name: /^This bank/ }).check();
      await customer.page.getByRole('textbox', { name: 'Account number' }).fill(accountOf(recipient, 'checking').number);
      await customer.page.getByRole('textbox', { name: 'Holder name' }).fill('Rosa Receiver');
      await customer.page.getByRole('textbox', { name: 'Amount' }).fill('50,000');
      await customer.page.getByRole('textbox', { name: 'Message' }).fill('House purchase');
      await customer.page.getByRole('button', { name: 'Continue' }).click();
      const confirmation = customer.page.getByRole('dialog', { name: 'Confirm the transfer' });
      await confirmation.getByText('The name matches the account.').waitFor();
      await confirmation.getByRole('button', { name: 'Confirm' }).click();
      await answerStepUpBySms(customer.page, sender);
      const popup = customer.page.getByRole('dialog', { name: 'We are reviewing your payment of $50,000.00' });
      await popup.getByText('In review', { exact: true }).waitFor();
      const held = paymentListSchema.parse(await (await customer.page.request.get('/api/v1/transfers?status=in_review')).json());
      const transfer = held.items.find((item) => item.amountCents === 5_000_000);
      if (!transfer) throw new Error('the $50,000 payment was not held');

      const [first, second] = await Promise.all([createStaff('four-eyes-first', 'compliance'), createStaff('four-eyes-second', 'compliance')]);
      const staffA = await openPage(browser());
      await staffSignIn(staffA.page, first);
      await staffA.page
        .getByRole('navigation', { name: 'Back office' })
        .getByRole('link', { name: /Held transfers/ })
        .click();
      await heading(staffA.page, 'Held transfers');
      await staffA.page.getByRole('button', { name: 'Review $50,000.00 to Rosa Receiver' }).click();
      await decide(staffA.page, 'Approve release (first of two)', 'Source of funds: house sale contract seen');
      await staffA.page.getByText('Your approval is recorded. Awaiting a second approval by someone other than you.').waitFor();
      await screenshotBothWidths(staffA.page, 'four-eyes-01-first-approval');
      await staffA.page.getByRole('button', { name: 'Done' }).click();
      // The first approver cannot be the second: the console offers no release, and the server refuses one.
      await staffA.page.getByText(/Awaiting a second approval by someone other than you/).waitFor();
      expect(await staffA.page.getByRole('button', { name: 'Release' }).isDisabled()).toBe(true);
      const csrf = (await staffA.context.cookies()).find((cookie) => cookie.name === staffCsrfCookieName || cookie.name === secureStaffCsrfCookieName);
      const again = await staffA.page.request.post(`/api/v1/staff/held-transfers/${transfer.id}/decision`, {
        data: { decision: 'release', reason: 'Trying to finish it alone' },
        headers: { [csrfHeaderName]: csrf?.value ?? '' },
      });
      expect(again.status()).toBe(403);
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe('four_eyes_required');

      const staffB = await openPage(browser());
      await staffSignIn(staffB.page, second);
      await staffB.page.goto('/ops/held-transfers');
      await staffB.page.getByRole('button', { name: 'Review $50,000.00 to Rosa Receiver' }).click();
      await staffB.page.getByText(`Awaiting a second approval by someone other than ${first.email}`, { exact: false }).waitFor();
      await screenshotBothWidths(staffB.page, 'four-eyes-02-second-approver');
      await decide(staffB.page, 'Release', 'Second look: payee and amount confirmed');
      await staffB.page.getByText('The transfer was released.').waitFor();

      await expect
        .poll(
          async () =>
            ((await (await customer.page.request.get(`/api/v1/transfers/${transfer.id}`)).json()) as { transfer: { status: string } }).transfer.status,
        )
        .toBe('completed');
      await customer.page.goto('/notifications');
      await customer.page.getByText('Your payment of $50,000.00 to Rosa Receiver was reviewed and has been sent.').waitFor();
      for (const opened of [customer, staffA, staffB]) await opened.context.close();
    },
    journeyTimeoutMs,
  );
});
