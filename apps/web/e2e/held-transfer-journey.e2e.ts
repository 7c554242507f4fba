import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { paymentListSchema } from '@strongroom/contracts/payments.ts';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import { accountOf, answerStepUpBySms, createFundedCustomer, figureOnDashboard, heading, runOps, signInPastWelcome, stepUpDialog } from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** Two customers signed in, a step-up code from the outbox and a decision by staff. */
const journeyTimeoutMs = 150_000;
const fraudWarning = 'We will never ask you for a tax, COT, IMF, TAC, NRC or BSA code, or ask you to pay a fee to release your money';

/** Nothing on a fraud-warning page may look like a place to type a "release code". */
async function codeInputCount(page: Page): Promise<number> {
  return page.locator('input[type="text"], input[type="number"], input:not([type]), textarea').count();
}

describe.skipIf(!inject('chromiumPath'))('a payment held for review', () => {
  const browser = useBrowser();

  it(
    'holds a $10,000 payment, tells the customer no code or fee will ever be asked for it, and delivers it once staff release it',
    async () => {
      const sender = await createFundedCustomer('held-sender', 2_000_000, { firstName: 'Hugo', lastName: 'Holder' });
      const recipientCustomer = await createFundedCustomer('held-recipient', 10_000, { firstName: 'Rosa', lastName: 'Receiver' });
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, sender);

      await page.goto('/transfer?to=other');
      await heading(page, 'Transfer to other bank');
      await page.getByRole('radio', { name: /^This bank/ }).check();
      await page.getByRole('textbox', { name: 'Account number' }).fill(accountOf(recipientCustomer, 'checking').number);
      await page.getByRole('textbox', { name: 'Holder name' }).fill('Rosa Receiver');
      await page.getByRole('textbox', { name: 'Amount' }).fill('10,000');
      await page.getByRole('textbox', { name: 'Message' }).fill('Deposit for the house');
      await page.getByRole('button', { name: 'Continue' }).click();
      const confirmation = page.getByRole('dialog', { name: 'Confirm the transfer' });
      await confirmation.getByText('The name matches the account.').waitFor();
      await confirmation.getByText('$10,000.00').waitFor();
      await confirmation.getByRole('button', { name: 'Confirm' }).click();

      // A new payee: the code first. The hold comes after, and asks nothing more.
      await stepUpDialog(page)
        .getByText(/enter the 6-digit code/)
        .waitFor();
      await answerStepUpBySms(page, sender);

      const popup = page.getByRole('dialog', { name: 'We are reviewing your payment of $10,000.00' });
      await popup.waitFor();
      await popup.getByText('In review', { exact: true }).waitFor();
      await popup.getByText(/We hold some payments for a short check by our staff/).waitFor();
      await popup.getByText(fraudWarning).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'held-01-in-review-popup');
      await popup.getByRole('button', { name: 'Done' }).click();

      // The money is set aside, not gone: the balance stays, the available balance drops.
      await page.goto('/dashboard');
      await heading(page, 'Your dashboard');
      await expect.poll(() => figureOnDashboard(page, 'Easy Checking', 'Available balance')).toBe('$10,000.00');
      expect(await figureOnDashboard(page, 'Easy Checking', 'Balance')).toBe('$20,000.00');
      const line = page.getByRole('row').filter({ hasText: 'Deposit for the house' });
      await line.getByText('In review', { exact: true }).waitFor();
      await page.getByRole('link', { name: /^Notifications, [1-9]\d* unread$/ }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'held-02-dashboard');

      await page.goto('/cot');
      await heading(page, 'We will never ask you for a COT code');
      await page.getByText(fraudWarning).waitFor();
      const heldSection = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Your transfers in review' }) });
      const heldItem = heldSection.getByRole('listitem').filter({ hasText: 'Rosa Receiver' });
      await heldItem.waitFor();
      expect(await heldItem.textContent()).toContain('$10,000.00');
      expect(await heldItem.textContent()).toContain('In review');
      expect(await heldItem.textContent()).toContain('Deposit for the house');
      expect(await codeInputCount(page)).toBe(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'held-03-cot-signed-in');

      // Rosa, in a browser of her own, has nothing yet.
      const recipient = await openPage(browser());
      await signInPastWelcome(recipient.page, recipientCustomer);
      await expect.poll(() => figureOnDashboard(recipient.page, 'Easy Checking', 'Balance')).toBe('$100.00');

      await page.goto('/notifications');
      await heading(page, 'Notifications');
      await page.getByRole('heading', { level: 2, name: 'Payment in review' }).waitFor();
      await page.getByText(/Your payment of \$10,000\.00 to Rosa Receiver is being reviewed by our team/).waitFor();
      await screenshotBothWidths(page, 'held-04-notifications-in-review');

      // Staff release it, as `npm run ops -- review <id> release --reason ...` does.
      const held = paymentListSchema.parse(await (await page.request.get('/api/v1/transfers?status=in_review')).json());
      expect(held.items.map((item) => item.message)).toEqual(['Deposit for the house']);
      const [heldTransfer] = held.items;
      if (!heldTransfer) throw new Error('the held transfer is not listed');
      const decision = await runOps('review', [heldTransfer.id, 'release', '--reason', 'Checked with the customer']);
      expect(decision.exitCode, decision.output).toBe(0);

      // A decision made through the ops CLI publishes no live event (its OpsContext has no
      // liveEvents), so neither screen can change by itself yet: both customers open theirs again.
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Payment released' }).waitFor();
      await page.getByText('Your payment of $10,000.00 to Rosa Receiver was reviewed and has been sent.').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'held-05-notifications-released');
      await recipient.page.reload();
      await expect.poll(() => figureOnDashboard(recipient.page, 'Easy Checking', 'Balance')).toBe('$10,100.00');
      await recipient.page.getByRole('row').filter({ hasText: 'Deposit for the house' }).waitFor();
      await screenshotBothWidths(recipient.page, 'held-06-recipient-dashboard');
      await recipient.page.getByRole('link', { name: /^Notifications, [1-9]\d* unread$/ }).click();
      await recipient.page.getByRole('heading', { level: 2, name: 'Money received' }).waitFor();
      await recipient.page.getByText('Hugo Holder sent you $10,000.00.').waitFor();
      expect(recipient.problems).toEqual([]);
      await recipient.context.close();

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it('warns a visitor on /cot who is signed out, and gives them nowhere to type a code', async () => {
    const { context, page, problems } = await openPage(browser());
    await page.goto('/cot');
    await heading(page, 'We will never ask you for a COT code');
    await page.getByText(fraudWarning).waitFor();
    await page.getByRole('heading', { level: 2, name: 'How a real review works' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Your transfers in review' }).count()).toBe(0);
    expect(await codeInputCount(page)).toBe(0);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'held-10-cot-signed-out');
    expect(problems).toEqual([]);
    await context.close();
  });
});
