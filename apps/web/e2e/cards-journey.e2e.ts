import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { authorizationResponseSchema, cardListResponseSchema, cardMessages, nameOnCardMessages } from '@strongroom/contracts/cards.ts';
import { csrfCookieName, csrfHeaderName, secureCsrfCookieName } from '@strongroom/contracts/http.ts';
import { idempotencyKeyHeader } from '@strongroom/contracts/payments.ts';
import { baseUrl, expectNoAxeViolations, openPage, viewports, useBrowser } from './support/browser.ts';
import { accountOf, answerStepUpBySms, createFundedCustomer, heading, signInPastWelcome } from './support/money.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** A customer, an operations officer in a browser of their own, the sandbox card network: generous for a busy machine. */
const journeyTimeoutMs = 180_000;

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The customer's own transfer from checking to savings, as the transfer screen sends it: the card needs $500 on savings. */
async function moveToSavings(page: Page, fromAccountId: string, toAccountId: string, amountCents: number): Promise<void> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === csrfCookieName || cookie.name === secureCsrfCookieName);
  const response = await page.request.post('/api/v1/transfers', {
    data: { kind: 'own', fromAccountId, toAccountId, amountCents, message: 'For the card' },
    headers: { [csrfHeaderName]: csrf?.value ?? '', [idempotencyKeyHeader]: crypto.randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(201);
}

describe.skipIf(!inject('chromiumPath'))('a card from request to a declined purchase', () => {
  const browser = useBrowser();

  it(
    'is requested, approved in the console, appears live, is revealed with the SMS code, frozen, and a purchase on it is declined',
    async () => {
      const holder = await createFundedCustomer('cards-holder', 300_000, { firstName: 'Carla', lastName: 'Cardholder' });
      const customer = await openPage(browser());
      await signInPastWelcome(customer.page, holder);

      // Savings below $500: the seed's words, and no request.
      await customer.page.goto('/card');
      await heading(customer.page, 'Card');
      await customer.page.getByText(cardMessages.savingsBalanceRequired).waitFor();
      expect(await customer.page.getByRole('button', { name: 'Request card' }).isDisabled()).toBe(true);

      await moveToSavings(customer.page, accountOf(holder, 'checking').id, accountOf(holder, 'savings').id, 60_000);
      await customer.page.reload();
      const name = customer.page.getByRole('textbox', { name: /Name on card/ });
      // What the card prints: capitals, letters, spaces and hyphens (decision 060).
      expect(await name.inputValue()).toBe('CARLA CARDHOLDER');
      expect(await customer.page.getByText(cardMessages.savingsBalanceRequired).count()).toBe(0);
      await name.fill('');
      await name.pressSequentially('carla 2 😀');
      expect(await name.inputValue()).toBe('CARLA 2 😀');
      await customer.page.getByRole('button', { name: 'Request card' }).click();
      await customer.page.getByText(nameOnCardMessages.invalid).waitFor();
      expect(await customer.page.getByRole('dialog').count()).toBe(0);
      await name.fill('');
      await name.pressSequentially('carla cardholder');
      await customer.page.getByRole('button', { name: 'Request card' }).click();
      // A review before the request is sent.
      const review = customer.page.getByRole('dialog', { name: 'Check your card request' });
      await review.getByText('CARLA CARDHOLDER').waitFor();
      await expectNoAxeViolations(customer.page);
      await screenshotBothWidths(customer.page, 'cards-00-review');
      await customer.page.setViewportSize(viewports.phone);
      expect(await customer.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.phone.width);
      await customer.page.setViewportSize(viewports.desktop);
      await review.getByRole('button', { name: 'Send request' }).click();
      await customer.page.getByText(cardMessages.pendingApproval).waitFor();
      await screenshotBothWidths(customer.page, 'cards-01-awaiting-approval');

      const officer = await createStaff('cards-officer', 'operations');
      const staff = await openPage(browser());
      await staffSignIn(staff.page, officer);
      await staff.page
        .getByRole('navigation', { name: 'Back office' })
        .getByRole('link', { name: /Card requests/ })
        .click();
      await heading(staff.page, 'Card requests');
      await staff.page.getByRole('button', { name: 'Approve Debit Card (Visa Card) for Carla Cardholder' }).click();
      const decision = staff.page.getByRole('dialog', { name: 'Approve a Debit Card (Visa Card) for Carla Cardholder?' });
      await decision.getByRole('textbox', { name: /Reason/ }).fill('Identity checked, savings kept, no concerns');
      await screenshotBothWidths(staff.page, 'cards-02-console-approve');
      await expectNoAxeViolations(staff.page);
      await decision.getByRole('button', { name: 'Approve card' }).click();
      await decision.getByText(/The card was approved/).waitFor();

      // The customer's /card page was never reloaded: the approval arrives as a live event.
      const carousel = customer.page.getByRole('region', { name: 'Your cards' });
      await carousel.waitFor();
      await carousel.getByText('Demo card').waitFor();
      await screenshotBothWidths(customer.page, 'cards-03-card-approved-live');
      await expectNoAxeViolations(customer.page);

      await carousel.getByRole('link', { name: /^Card details/ }).click();
      await heading(customer.page, 'Card details');
      await customer.page.getByRole('button', { name: 'Reveal' }).click();
      await answerStepUpBySms(customer.page, holder);
      await customer.page.getByRole('timer').waitFor();
      const cardNumber = (await customer.page.locator('.card-facts dd').nth(2).innerText()).replace(/\s/g, '');
      const cvv = (await customer.page.locator('.card-facts dd').nth(3).innerText()).trim();
      const expiry = (await customer.page.locator('.card-facts dd').nth(4).innerText()).trim();
      expect(cardNumber).toMatch(/^\d{16}$/);
      expect(luhnValid(cardNumber)).toBe(true);
      expect(cvv).toMatch(/^\d{3}$/);
      await screenshotBothWidths(customer.page, 'cards-04-number-revealed');
      await customer.page.getByRole('button', { name: 'Hide now' }).click();
      expect(await customer.page.getByText(cardNumber.replace(/(\d{4})(?=\d)/g, '$1 ')).count()).toBe(0);
      await customer.page.getByText('Card number viewed').waitFor();

      await customer.page.getByRole('button', { name: 'Freeze' }).click();
      await customer.page.getByRole('button', { name: 'Unfreeze' }).waitFor();

      // A shop's terminal asks the sandbox card network: the frozen card is declined, no money held.
      const purchase = await fetch(`${baseUrl()}/api/v1/dev/card-network/authorizations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cardNumber, expiry, cvv, amountCents: 4_250, merchantName: 'Corner Grocer', mcc: '5411' }),
      });
      const { authorization } = authorizationResponseSchema.parse(await purchase.json());
      expect(authorization.status).toBe('declined');
      expect(authorization.declineReason).toBe('card_frozen');

      await customer.page.reload();
      const transactions = customer.page.getByRole('list', { name: 'Recent card transactions' });
      await transactions.getByText('Corner Grocer').waitFor();
      await transactions.getByText('Declined: Card frozen').waitFor();
      await screenshotBothWidths(customer.page, 'cards-05-frozen-declined');
      await expectNoAxeViolations(customer.page);

      // And in History, as a line that moved nothing.
      await customer.page.goto('/transaction-history');
      await customer.page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
      await customer.page.getByRole('table', { name: 'Recent transactions' }).getByText('Corner Grocer · Groceries · Declined: Card frozen').waitFor();
      await screenshotBothWidths(customer.page, 'cards-06-declined-in-history');

      const cards = cardListResponseSchema.parse(await (await customer.page.request.get('/api/v1/cards')).json());
      expect(cards.items.map((card) => card.status)).toEqual(['frozen']);
      // No answer but reveal carries the full number.
      expect(JSON.stringify(cards)).not.toContain(cardNumber);
      expect(customer.problems).toEqual([]);
      expect(staff.problems).toEqual([]);
      for (const opened of [customer, staff]) await opened.context.close();
    },
    journeyTimeoutMs,
  );
});
