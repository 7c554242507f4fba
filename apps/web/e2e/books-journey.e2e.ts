import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Download, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { booksDaysResponseSchema } from '@strongroom/contracts/books.ts';
import { uniqueEmail } from './support/identity.ts';
import { dataDirectory, expectNoAxeViolations, openPage, useBrowser, useOwnServer } from './support/browser.ts';
import { createFundedCustomer, heading, runOps } from './support/money.ts';
import { staffPassword, staffSignIn, type JourneyStaff } from './support/staff.ts';
import { screenshotWidths } from './support/screenshots.ts';

/**
 * Issue 35: a finance member reads the balance sheet of a closed day (balanced, customer deposits
 * tied to the customers' balances), downloads it as CSV, imports the settlement bank's statement
 * with a line the ledger does not have, and resolves that exception with an adjusting entry.
 */
const journeyTimeoutMs = 240_000;
/** The injected line: $15.00 out of the settlement account that nothing in the ledger explains. */
const injectedCents = 1_500;

function screenshots(page: Page, name: string): Promise<void> {
  return screenshotWidths(page, 'books', name);
}

/** A finance member, made as an operator would (`npm run ops -- create-staff --role finance`). */
async function createFinanceStaff(label: string): Promise<JourneyStaff> {
  const email = uniqueEmail(label);
  const result = await runOps('create-staff', ['--email', email, '--password', staffPassword, '--role', 'finance']);
  expect(result.exitCode, result.output).toBe(0);
  return { email, totpSecret: (JSON.parse(result.output) as { totpSecret: string }).totpSecret };
}

/** The first business day on or after `day` (the bank's calendar). */
async function businessDayFrom(page: Page, day: string): Promise<string> {
  const start = new Date(`${day}T00:00:00Z`);
  const tenDaysLater = new Date(start.getTime() + 10 * 86_400_000).toISOString().slice(0, 10);
  const { days } = (await (await page.request.get(`/api/v1/calendar/business-days?from=${day}&to=${tenDaysLater}`)).json()) as { days: string[] };
  const [first] = days;
  if (!first) throw new Error(`no business day between ${day} and ${tenDaysLater}`);
  return first;
}

/**
 * A statement of the settlement bank for the day the sandbox's own statement covers, with one line
 * only: money out of the first account that matches nothing in the ledger. Its file, group and
 * account headers are the sandbox statement's (so the account number is the settlement bank's);
 * the control totals and record counts are computed for the new file, so only the line is wrong.
 */
function statementWithUnknownLine(sandboxStatement: string): string {
  const records = sandboxStatement.trim().split(/\r?\n/);
  const [fileHeader, groupHeader, accountHeader] = ['01,', '02,', '03,'].map((code) => records.find((record) => record.startsWith(code)));
  if (!fileHeader || !groupHeader || !accountHeader) throw new Error(`the sandbox statement lacks a header:\n${sandboxStatement}`);
  // A file id of its own: this is another file of the same day.
  const fileFields = fileHeader.replace(/\/$/, '').split(',');
  fileFields[5] = String(Date.now() % 1_000_000);
  // 03,account,currency, then (type code, amount, item count, funds type) for each summary.
  const summaryCents = accountHeader
    .replace(/\/$/, '')
    .split(',')
    .slice(3)
    .filter((_, index) => index % 4 === 1)
    .reduce((sum, amount) => sum + (amount === '' ? 0 : Number(amount)), 0);
  const totalCents = summaryCents + injectedCents;
  return [
    `${fileFields.join(',')}/`,
    groupHeader,
    accountHeader,
    `16,699,${injectedCents},Z,JOURNEY${Date.now()},NOMATCH-BOOKS-JOURNEY,Service charge nobody booked`,
    `49,${totalCents},3/`,
    `98,${totalCents},1,5/`,
    `99,${totalCents},1,7/`,
    '',
  ].join('\n');
}

describe.skipIf(!inject('chromiumPath'))('the bank’s books: a closed day’s balance sheet, and a reconciliation exception resolved', () => {
  // Closing days runs end of day, which moves the whole bank's date: a bank of this journey's own.
  useOwnServer();
  const browser = useBrowser();

  it(
    'a finance member reads a closed day’s balanced balance sheet, downloads it as CSV, and resolves an injected statement line with an adjusting entry',
    async () => {
      await createFundedCustomer('books', 250_000, { firstName: 'Bea', lastName: 'Books' });
      const member = await createFinanceStaff('books-finance');
      const { page, problems } = await openPage(browser());
      await staffSignIn(page, member);

      // Close the day of the customer's money (end of day through it closes the books of each day it runs).
      const { openDay } = booksDaysResponseSchema.parse(await (await page.request.get('/api/v1/staff/books/days')).json());
      const day = await businessDayFrom(page, openDay);
      const closing = await runOps('close-day', ['--through', day]);
      expect(closing.exitCode, closing.output).toBe(0);

      // The balance sheet of the closed day: balanced, the deposits tied to the customers' own balances.
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Books' }).click();
      await heading(page, 'Books');
      await page.getByText(/^Books closed through /).waitFor();
      await page.getByRole('tab', { name: 'Balance sheet' }).click();
      await page.getByRole('table', { name: /^Balance sheet as of / }).waitFor();
      await screenshots(page, '01-balance-sheet');
      await page.getByText(/Assets \(-?\$[\d,.]+\) equal liabilities plus equity/).waitFor();
      await page.getByText(/Customer deposits tie to customer accounts/).waitFor();
      expect(await page.getByText('Not balanced').count()).toBe(0);
      expect(await page.getByText('Provisional: this day is still open.').count()).toBe(0);
      await expectNoAxeViolations(page);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the balance sheet as CSV' }).click()]);
      const csv = await readFile(await (download as Download).path(), 'utf8');
      expect(csv.split(/\r?\n/)[0]).toBe('account,name,type,debit,credit,balance');
      await page.getByRole('tab', { name: 'Trial balance' }).click();
      await page.getByText(/Debits equal credits/).waitFor();
      await screenshots(page, '02-trial-balance');

      // The statement of that day with a line the ledger does not have: one exception, resolved by an adjusting entry.
      const statement = await readFile(path.join(dataDirectory(), 'rail', 'bai2', `${day}.bai2`), 'utf8');
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Reconciliation' }).click();
      await heading(page, 'Reconciliation');
      await page
        .getByLabel('BAI2 statement file')
        .setInputFiles({ name: `injected-${day}.bai2`, mimeType: 'text/plain', buffer: Buffer.from(statementWithUnknownLine(statement)) });
      await page.getByLabel('Reason (kept in the audit log)').fill('The settlement bank resent the day with a service charge');
      await page.getByRole('button', { name: 'Import the statement' }).click();
      await page.getByText(/^Imported injected-.*1 in the exceptions queue\.$/).waitFor();
      const resolve = page.getByRole('button', { name: /^Resolve the \$15\.00 exception of / });
      await resolve.waitFor();
      await screenshots(page, '03-exceptions');
      await resolve.click();
      const dialog = page.getByRole('dialog', { name: /^Resolve the \$15\.00 exception of / });
      await dialog.getByText(/customer ref\. NOMATCH-BOOKS-JOURNEY/).waitFor();
      expect(await dialog.getByRole('combobox', { name: 'Resolve by' }).inputValue()).toBe('adjusted');
      await dialog.getByRole('textbox', { name: /^Reason/ }).fill('Settlement bank service charge, not booked in the ledger');
      await expectNoAxeViolations(page);
      await screenshots(page, '04-resolve-dialog');
      await dialog.getByRole('button', { name: 'Book an adjusting entry of $15.00' }).click();
      await dialog.getByText('The $15.00 exception is resolved.').waitFor();
      await dialog.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('combobox', { name: 'Show' }).selectOption('resolved');
      await page.getByText('Resolved: adjusting entry posted').first().waitFor();
      await screenshots(page, '05-resolved');

      // The adjusting entry it booked, in the books' list.
      await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Adjusting entries' }).click();
      await heading(page, 'Adjusting entries');
      await page.getByRole('table', { name: 'Adjusting entries, newest first' }).getByText('$15.00').first().waitFor();
      await expectNoAxeViolations(page);
      await screenshots(page, '06-adjustments');

      const books = await runOps('check-books', []);
      expect(books.exitCode, books.output).toBe(0);
      const ledger = await runOps('check-ledger', []);
      expect(ledger.exitCode, ledger.output).toBe(0);
      expect(problems).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
