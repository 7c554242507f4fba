import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, useBrowser, useOwnServer } from './support/browser.ts';
import { accountOf, answerStepUpBySms, createFundedCustomer, heading, runOps, signInPastWelcome } from './support/money.ts';
import { screenshotWidths } from './support/screenshots.ts';

/** Issue 33: pick Electricity, add a biller as a payee, schedule a monthly payment, let end of day pass two due dates. */
const journeyTimeoutMs = 240_000;
const biller = 'Sandbox City Power & Light';
const historyLine = `Bill payment to ${biller}, account ending 4821`;

function screenshots(page: Page, name: string): Promise<void> {
  return screenshotWidths(page, 'bill-pay', name);
}

interface ScheduleDetail {
  schedule: { id: string; next: string[]; description: string };
  occurrences: { date: string; status: string; transferId?: string }[];
}

async function apiJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

/** The descriptions of the history table's rows, as the customer reads them. */
async function historyDescriptions(page: Page): Promise<string[]> {
  const table = page.getByRole('table', { name: 'Recent transactions' });
  await table.waitFor();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[2]?.textContent ?? ''));
}

describe.skipIf(!inject('chromiumPath'))('bill pay: a biller payee and a monthly payment run by end of day', () => {
  // End of day moves the bank's date ahead (the sandbox's time machine): a bank of this journey's own.
  useOwnServer();
  const browser = useBrowser();

  it(
    'picks Electricity, adds a payee, schedules a monthly payment with a step-up, and finds two history lines and the upcoming list after two due dates',
    async () => {
      const customer = await createFundedCustomer('bill-pay', 500_000, { firstName: 'Willa', lastName: 'Watts' });
      const { page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);

      // Bill Pay: the Electricity tile leads to its billers.
      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Bill Pay' }).click();
      await heading(page, 'Bill Pay');
      await page.getByRole('main').getByRole('link', { name: 'Electricity' }).click();
      await page.waitForURL('**/billpay/electricity');
      await page.getByRole('button', { name: `Add ${biller} as a payee` }).click();

      // The account number is checked against the biller's pattern, and the message gives the example.
      const dialog = page.getByRole('dialog', { name: `Add ${biller}` });
      const number = dialog.getByRole('textbox', { name: new RegExp(`^Your account number at ${biller.replace('&', '\\&')}`) });
      await number.fill('48-21');
      await dialog.getByRole('button', { name: 'Add payee' }).click();
      await dialog.getByText(/looks like 1234567890/).waitFor();
      await screenshots(page, '01-pattern-refused');
      await number.fill('5550004821');
      await dialog.getByRole('textbox', { name: /^Nickname/ }).fill('Power bill');
      await dialog.getByRole('button', { name: 'Add payee' }).click();
      await page.getByRole('heading', { name: 'Your payees' }).waitFor();
      await page.getByRole('link', { name: 'Pay Power bill' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshots(page, '02-payee-added');

      // Schedule it monthly from the earliest date the bank allows, until cancelled.
      await page.getByRole('link', { name: 'Pay Power bill' }).click();
      await page.getByRole('link', { name: 'Schedule or repeat this payment' }).click();
      await heading(page, 'Schedule a payment');
      const today = (await apiJson<{ earliestPaymentDate: string }>(page, '/api/v1/calendar/today')).earliestPaymentDate;
      const form = page.getByRole('form', { name: 'Schedule a payment' });
      await form.getByRole('combobox', { name: /^From account/ }).selectOption(accountOf(customer, 'checking').id);
      await form.getByRole('combobox', { name: /^Bill payee/ }).waitFor();
      await form.getByRole('textbox', { name: /^Amount/ }).fill('42.50');
      await form.getByRole('radio', { name: 'Repeating' }).check();
      await form.getByRole('combobox', { name: /^Repeats/ }).selectOption('monthly');
      await form.getByRole('textbox', { name: /^First payment date/ }).fill(today);
      // No end chosen: the form says to choose one.
      await form.getByRole('button', { name: 'Continue' }).click();
      await form.getByText('Choose when the payments end').waitFor();
      await form.getByRole('radio', { name: 'Until I cancel' }).check();
      await screenshots(page, '03-schedule-form');
      await form.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('dialog', { name: 'Confirm the scheduled payment' }).getByRole('button', { name: 'Confirm' }).click();
      // A new payee: the step-up is asked for now, once, and never when the payments run.
      await answerStepUpBySms(page, customer);
      await page.getByRole('heading', { name: /Payment scheduled/ }).waitFor();
      await expectNoAxeViolations(page);
      await screenshots(page, '04-scheduled');

      const [made] = (await apiJson<{ items: { id: string; next: string[] }[] }>(page, '/api/v1/scheduled-payments')).items;
      if (!made) throw new Error('no schedule was made');
      const [first, second, third] = made.next;
      if (!first || !second || !third) throw new Error(`a monthly schedule should have three dates ahead: ${made.next.join(', ')}`);

      // End of day runs through the second due date (ahead of the clock in this sandbox): both are paid, once.
      const run = await runOps('end-of-day', ['--through', second]);
      expect(run.exitCode, run.output).toBe(0);
      expect((await runOps('end-of-day', ['--through', second])).exitCode).toBe(0);
      const detail = await apiJson<ScheduleDetail>(page, `/api/v1/scheduled-payments/${made.id}`);
      expect(detail.occurrences.filter((occurrence) => occurrence.status === 'paid').map((occurrence) => occurrence.date)).toEqual([first, second]);
      expect(detail.schedule.description).toBe(historyLine);

      // History: two lines, one per payment.
      await page.goto('/transaction-history');
      await heading(page, 'History');
      await expect.poll(async () => (await historyDescriptions(page)).filter((line) => line.startsWith(historyLine)).length).toBe(2);
      await screenshots(page, '05-history');

      // The upcoming list goes on with the third date; the schedule shows both paid.
      await page.goto('/payments/scheduled');
      const upcoming = page.getByRole('region', { name: 'Upcoming (next 90 days)' });
      await upcoming.getByText(historyLine).first().waitFor();
      await expectNoAxeViolations(page);
      await screenshots(page, '06-upcoming');
      await page.goto(`/payments/scheduled/${made.id}`);
      const payments = page.getByRole('region', { name: 'Payments' });
      await expect.poll(async () => payments.getByText('Paid', { exact: true }).count()).toBe(2);
      await screenshots(page, '07-schedule-detail');

      const ledger = await runOps('check-ledger', []);
      expect(ledger.exitCode, ledger.output).toBe(0);
      expect(problems).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
