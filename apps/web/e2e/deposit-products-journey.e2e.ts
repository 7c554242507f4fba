import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { csrfCookieName, csrfHeaderName } from '@strongroom/contracts/http.ts';
import { expectNoAxeViolations, openPage, useBrowser, useOwnServer } from './support/browser.ts';
import { accountOf, createFundedCustomer, heading, runOps, signInPastWelcome, type FundedCustomer } from './support/money.ts';
import { screenshotWidths } from './support/screenshots.ts';

/** Open a Gold Checking from savings, let the bank's month end pass, read the interest and the fee and the month's statement. */
const journeyTimeoutMs = 180_000;

function screenshots(page: Page, name: string): Promise<void> {
  return screenshotWidths(page, 'deposit-products', name);
}

/** An own transfer through the API, as the customer's browser sends it. */
async function transferOwn(page: Page, customer: FundedCustomer, amountCents: number): Promise<void> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === csrfCookieName)?.value;
  if (!csrf) throw new Error('the session has no CSRF cookie');
  const response = await page.request.post('/api/v1/transfers', {
    headers: { [csrfHeaderName]: csrf, 'idempotency-key': randomUUID() },
    data: { kind: 'own', fromAccountId: accountOf(customer, 'checking').id, toAccountId: accountOf(customer, 'savings').id, amountCents, message: 'Savings' },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The business day on or after the last day of the bank's month: the end of day that closes the month. */
async function monthClosingDay(page: Page): Promise<string> {
  const today = ((await (await page.request.get('/api/v1/calendar/today')).json()) as { businessDate: string }).businessDate;
  const [year, month] = today.split('-').map(Number) as [number, number];
  const monthEnd = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  const tenDaysLater = new Date(Date.UTC(year, month, 10)).toISOString().slice(0, 10);
  const { days } = (await (await page.request.get(`/api/v1/calendar/business-days?from=${monthEnd}&to=${tenDaysLater}`)).json()) as { days: string[] };
  const closing = days[0];
  if (!closing) throw new Error(`no business day between ${monthEnd} and ${tenDaysLater}`);
  return closing;
}

/** The cells of each body row of the history table, as the customer reads them. */
async function historyRows(page: Page): Promise<string[][]> {
  const table = page.getByRole('table', { name: 'Recent transactions' });
  await table.waitFor();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

describe.skipIf(!inject('chromiumPath'))('deposit products: open, earn, pay, read the statement', () => {
  // End of day moves the whole bank's month (and the sandbox's date, with the time machine): a bank of this journey's own.
  useOwnServer();
  const browser = useBrowser();

  it(
    'opens a Gold Checking from savings after the disclosure, runs end of day through the month end, and finds the interest and fee lines and the statement',
    async () => {
      const customer = await createFundedCustomer('deposit-products', 700_000, { firstName: 'Greta', lastName: 'Gold' });
      const { page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      await transferOwn(page, customer, 600_000);

      // Open a Gold Checking with $100.00 from savings: the product, then the Truth in Savings disclosure, accepted.
      await page.getByRole('link', { name: 'Open an account' }).click();
      await page.getByRole('radio', { name: /Gold Checking/ }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { level: 2, name: 'Truth in Savings disclosure: Gold Checking' }).waitFor();
      await page.getByText(/daily balance method/).waitFor();
      await screenshots(page, 'disclosure');
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('accept the disclosure to open the account').waitFor();
      await page.getByRole('checkbox', { name: 'I have read and accept the disclosure' }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('combobox', { name: /Opening deposit from/ }).selectOption(`account:${accountOf(customer, 'savings').id}`);
      await page.getByRole('textbox', { name: /^Opening deposit/ }).fill('100');
      await page.getByRole('button', { name: 'Review' }).click();
      await page.getByRole('button', { name: 'Open Gold Checking' }).click();
      await page.getByText(/Your Gold Checking is open/).waitFor();

      // The bank's month ends: end of day runs through the business day that closes it (ahead of the clock in this sandbox).
      const through = await monthClosingDay(page);
      const run = await runOps('end-of-day', ['--through', through]);
      expect(run.exitCode, run.output).toBe(0);
      const totals = JSON.parse(run.output) as { days: string[]; interestPostedCents: number; feesChargedCents: number };
      expect(totals.days).toContain(through);
      expect(totals.interestPostedCents).toBeGreaterThan(0);
      expect(totals.feesChargedCents).toBeGreaterThanOrEqual(1_495);
      // Run again: nothing is run twice.
      expect(JSON.parse((await runOps('end-of-day', ['--through', through])).output)).toEqual({ days: [], interestPostedCents: 0, feesChargedCents: 0 });

      // History: the savings interest (money in, Interest) and Gold Checking's monthly fee (money out, Fee).
      await page.goto('/transaction-history');
      await heading(page, 'History');
      await expect.poll(async () => (await historyRows(page)).some((row) => row[3] === 'Interest')).toBe(true);
      const rows = await historyRows(page);
      const interest = rows.find((row) => row[3] === 'Interest');
      expect(interest?.[2]).toMatch(/^Interest/);
      expect(interest?.[4]).toMatch(/^\$\d+\.\d{2}$/);
      const fee = rows.find((row) => row[3] === 'Fee');
      expect(fee?.[2]).toMatch(/Monthly maintenance fee/);
      expect(fee?.[4]).toBe('-$14.95');

      // The month's statement of the Gold Checking: its fee, and its files.
      const gold = page.getByRole('combobox', { name: 'Monthly statements of' });
      await gold.selectOption({ label: (await gold.locator('option', { hasText: 'Gold Checking' }).textContent()) ?? '' });
      const statements = page.getByRole('region', { name: 'Monthly statements' });
      await statements.getByRole('heading', { level: 3 }).first().waitFor();
      await expect.poll(async () => statements.getByText('$14.95').count()).toBeGreaterThan(0);
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        statements
          .getByRole('link', { name: /as PDF$/ })
          .first()
          .click(),
      ]);
      const bytes = await readFile(await (file as Download).path());
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      await statements.scrollIntoViewIfNeeded();
      await screenshots(page, 'history-statements');
      await expectNoAxeViolations(page);

      // The dashboard: each account's product, rate and APY; the sandbox banner says the bank's date ran ahead when it did.
      await page.goto('/dashboard');
      await page.getByText('Gold Checking').first().waitFor();
      await page
        .getByText(/Fees paid/)
        .first()
        .waitFor();
      await screenshots(page, 'dashboard');

      const ledger = await runOps('check-ledger', []);
      expect(ledger.exitCode, ledger.output).toBe(0);
      expect(problems).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
