import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { authorizationResponseSchema, cardListResponseSchema, cardResponseSchema } from '@strongroom/contracts/cards.ts';
import { csrfCookieName, csrfHeaderName, secureCsrfCookieName } from '@strongroom/contracts/http.ts';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { baseUrl, expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import { accountOf, createFundedCustomer, heading, readStepUpCode, runOps, signInPastWelcome, type FundedCustomer } from './support/money.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { screenshotWidths } from './support/screenshots.ts';

/**
 * Issue 34: a customer reports a card charge they did not make (the card frozen and replaced in the
 * same step), staff give provisional credit and resolve it for the customer, and the customer reads
 * the letters and the credit in their history.
 */
const journeyTimeoutMs = 240_000;
const merchant = 'Midnight Electronics';

function screenshots(page: Page, name: string): Promise<void> {
  return screenshotWidths(page, 'disputes', name);
}

async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === csrfCookieName || cookie.name === secureCsrfCookieName);
  if (!csrf) throw new Error('the session has no CSRF cookie');
  return { [csrfHeaderName]: csrf.value };
}

/** What the customer's browser sends to get a debit card: $600 to savings (a card needs $500 there), then the request. */
async function requestDebitCard(page: Page, customer: FundedCustomer): Promise<string> {
  const moved = await page.request.post('/api/v1/transfers', {
    headers: { ...(await csrfHeaders(page)), [idempotencyKeyHeader]: crypto.randomUUID() },
    data: {
      kind: 'own',
      fromAccountId: accountOf(customer, 'checking').id,
      toAccountId: accountOf(customer, 'savings').id,
      amountCents: 60_000,
      message: 'For the card',
    },
  });
  expect(moved.status(), await moved.text()).toBe(201);
  const requested = await page.request.post('/api/v1/cards', {
    headers: { ...(await csrfHeaders(page)), [idempotencyKeyHeader]: crypto.randomUUID() },
    data: { cardType: 'debit', cardNetwork: 'visa', nameOnCard: 'DORA DISPUTE' },
  });
  expect(requested.status(), await requested.text()).toBe(201);
  return cardResponseSchema.parse(await requested.json()).card.id;
}

/** The card's number, as the customer reveals it after a step-up (the only way the bank shows it). */
async function revealCard(page: Page, customer: FundedCustomer, cardId: string): Promise<{ number: string; cvv: string; expiry: string }> {
  const first = await page.request.post(`/api/v1/cards/${cardId}/reveal`, { headers: await csrfHeaders(page) });
  expect(first.status(), await first.text()).toBe(403);
  const { error } = (await first.json()) as { error: { code: string; challengeId: string } };
  expect(error.code).toBe('step_up_required');
  const code = await readStepUpCode(customer);
  const verified = await page.request.post(`/api/v1/step-up/${error.challengeId}`, { headers: await csrfHeaders(page), data: { code } });
  expect(verified.status(), await verified.text()).toBe(200);
  const revealed = await page.request.post(`/api/v1/cards/${cardId}/reveal`, { headers: { ...(await csrfHeaders(page)), [stepUpHeader]: error.challengeId } });
  expect(revealed.status(), await revealed.text()).toBe(200);
  return (await revealed.json()) as { number: string; cvv: string; expiry: string };
}

describe.skipIf(!inject('chromiumPath'))('disputes: an unauthorized card charge, credited and resolved on Regulation E’s clock', () => {
  const browser = useBrowser();

  it(
    'the customer reports it (card frozen and replaced), staff credit and resolve it, the customer reads the letters and the credit',
    async () => {
      const customer = await createFundedCustomer('disputes', 300_000, { firstName: 'Dora', lastName: 'Dispute' });
      const { page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      const cardId = await requestDebitCard(page, customer);

      // Operations approve the card, and later work the dispute (cards.decide and disputes.manage).
      const officer = await createStaff('disputes-officer', 'operations');
      const staff = await openPage(browser());
      await staffSignIn(staff.page, officer);
      await staff.page.goto('/ops/cards');
      await staff.page.getByRole('button', { name: 'Approve Debit Card (Visa Card) for Dora Dispute' }).click();
      const approval = staff.page.getByRole('dialog', { name: 'Approve a Debit Card (Visa Card) for Dora Dispute?' });
      await approval.getByRole('textbox', { name: /Reason/ }).fill('Identity checked, savings kept, no concerns');
      await approval.getByRole('button', { name: 'Approve card' }).click();
      await approval.getByText(/The card was approved/).waitFor();

      // A shop the customer never visited charges the card through the sandbox card network.
      const card = await revealCard(page, customer, cardId);
      const charged = await fetch(`${baseUrl()}/api/v1/dev/card-network/authorizations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cardNumber: card.number, expiry: card.expiry, cvv: card.cvv, amountCents: 12_999, merchantName: merchant, mcc: '5732' }),
      });
      const { authorization } = authorizationResponseSchema.parse(await charged.json());
      expect(authorization.status).toBe('approved');

      // History: the line's details offer "Report a problem".
      await page.goto('/transaction-history');
      await heading(page, 'History');
      await page
        .getByRole('table', { name: 'Recent transactions' })
        .getByRole('button', { name: new RegExp(merchant) })
        .first()
        .click();
      await page.getByRole('dialog', { name: 'Details' }).waitFor();
      await page.getByRole('link', { name: 'Report a problem with this transaction' }).click();
      await heading(page, /Report a problem/);
      await page.getByRole('radio', { name: 'I did not make or allow this' }).check();
      const replace = page.getByRole('checkbox', { name: 'Freeze this card and send me a new one' });
      expect(await replace.isChecked()).toBe(true);
      await page.getByRole('textbox', { name: /What happened/ }).fill('I have never shopped at this store; my card was in my wallet all day.');
      await screenshots(page, '01-report-form');
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Review the report' }).click();
      await page.getByRole('button', { name: 'Send the report' }).click();
      await page.getByRole('heading', { name: 'Your report is sent' }).waitFor();
      await screenshots(page, '02-report-sent');

      const { items } = (await (await page.request.get('/api/v1/disputes')).json()) as {
        items: { id: string; status: string; provisionalCreditBy: string; resolveBy: string }[];
      };
      const [dispute] = items;
      if (!dispute) throw new Error('no dispute was made');
      expect(dispute.status).toBe('submitted');
      // A point-of-sale card purchase: 10 business days for provisional credit, 90 days to finish.
      expect(dispute.resolveBy > dispute.provisionalCreditBy).toBe(true);
      // The card is frozen and a replacement ordered, in the same step.
      const cards = cardListResponseSchema.parse(await (await page.request.get('/api/v1/cards')).json());
      expect(cards.items.find((each) => each.id === cardId)?.status).toBe('frozen');
      expect(cards.items.some((each) => each.id !== cardId && each.status === 'pending_approval')).toBe(true);

      // Staff: the case in the queue; provisional credit, then the decision for the customer.
      await staff.page.goto('/ops/disputes');
      await staff.page.getByRole('link', { name: 'Dora Dispute' }).first().waitFor();
      await screenshots(staff.page, '03-staff-queue');
      await staff.page.goto(`/ops/disputes/${dispute.id}`);
      await staff.page.getByRole('button', { name: 'Give provisional credit' }).click();
      let dialog = staff.page.getByRole('dialog', { name: /provisional credit/ });
      await dialog.getByRole('textbox', { name: /^Reason/ }).fill('Card reported stolen the same day; credit while we investigate');
      await dialog.getByRole('button', { name: 'Review' }).click();
      await dialog.getByRole('button', { name: /^Credit \$129\.99 to Dora Dispute/ }).click();
      await staff.page.getByRole('button', { name: 'Decide for the customer' }).waitFor();
      await staff.page.getByRole('button', { name: 'Decide for the customer' }).click();
      dialog = staff.page.getByRole('dialog', { name: /^Resolve \$129\.99 for Dora Dispute/ });
      await dialog
        .getByRole('textbox', { name: /^Explanation/ })
        .fill('The charge was made with a copied card at a store you never visited; it is refunded for good.');
      await dialog.getByRole('textbox', { name: /^Reason/ }).fill('Merchant in a fraud ring; chargeback filed with the network');
      await dialog.getByRole('button', { name: 'Review' }).click();
      await dialog.getByRole('button', { name: /^Resolve \$129\.99 for Dora Dispute/ }).click();
      await staff.page.getByText(/No action is open/).waitFor();
      await expectNoAxeViolations(staff.page);
      await screenshots(staff.page, '04-staff-resolved');

      // The customer: the case resolved, three letters to keep, the credit in history.
      await page.goto(`/disputes/${dispute.id}`);
      await page.getByText('Resolved in your favour').first().waitFor();
      const letters = page.getByRole('region', { name: 'Letters' });
      for (const name of ['We received your report', 'Provisional credit notice', 'The result of our investigation'])
        await letters.getByRole('link', { name: new RegExp(name) }).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), letters.getByRole('link', { name: /The result of our investigation/ }).click()]);
      expect((await readFile(await (download as Download).path())).subarray(0, 5).toString()).toBe('%PDF-');
      await expectNoAxeViolations(page);
      await screenshots(page, '05-customer-resolved');
      await page.goto('/transaction-history');
      await page
        .getByRole('table', { name: 'Recent transactions' })
        .getByText(/Provisional credit/)
        .first()
        .waitFor();
      await screenshots(page, '06-history');

      const ledger = await runOps('check-ledger', []);
      expect(ledger.exitCode, ledger.output).toBe(0);
      expect(problems).toEqual([]);
      expect(staff.problems).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
