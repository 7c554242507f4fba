import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { csrfCookieName, csrfHeaderName } from '@strongroom/contracts/http.ts';
import { paymentResponseSchema } from '@strongroom/contracts/payments.ts';
import { expectNoAxeViolations, openPage, viewports, useBrowser } from './support/browser.ts';
import { showColorScheme } from './support/identity.ts';
import { saveScreenshot, screenshotBothWidths } from './support/screenshots.ts';
import { accountOf, createFundedCustomer, signInPastWelcome, type FundedCustomer } from './support/money.ts';

/**
 * Signing in, three transfers, a dialog, five downloads and a visit to the public verification
 * page: 91 s in a full run on a 2-core machine; a CI run there may take twice that (decision 083).
 */
const journeyTimeoutMs = 300_000;

/** The own transfers the journey makes through the API, as the customer's browser would send them. */
const transfers = [
  { amountCents: 120_000, message: 'Rent share March' },
  { amountCents: 4_250, message: 'Groceries money' },
  { amountCents: 30_000, message: 'Holiday fund' },
] as const;

/** `POST /transfers` with the session's CSRF cookie as header and a fresh Idempotency-Key; own transfers need no step-up. */
async function transferOwn(page: Page, customer: FundedCustomer, transfer: { amountCents: number; message: string }): Promise<void> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === csrfCookieName)?.value;
  if (!csrf) throw new Error('the session has no CSRF cookie');
  const response = await page.request.post('/api/v1/transfers', {
    headers: { [csrfHeaderName]: csrf, 'idempotency-key': randomUUID() },
    data: {
      kind: 'own',
      fromAccountId: accountOf(customer, 'checking').id,
      toAccountId: accountOf(customer, 'savings').id,
      amountCents: transfer.amountCents,
      message: transfer.message,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  expect(paymentResponseSchema.parse(await response.json()).transfer.status).toBe('completed');
}

/** The cells of each body row of the history table, as the customer reads them. */
async function tableRows(page: Page): Promise<string[][]> {
  const table = page.getByRole('table', { name: 'Recent transactions' });
  await table.waitFor();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

/** Clicks what starts a download and returns the file's name and its bytes. */
async function download(page: Page, start: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), start()]);
  const path = await (file as Download).path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

describe.skipIf(!inject('chromiumPath'))('history, receipts and statements', () => {
  const browser = useBrowser();

  it(
    'finds a transfer in history, proves it with a receipt anyone can verify, and exports statements in PDF, CSV and OFX',
    async () => {
      const customer = await createFundedCustomer('history', 500_000, { firstName: 'Hana', lastName: 'History' });
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      for (const transfer of transfers) await transferOwn(page, customer, transfer);

      // The dashboard's recent transactions lead to the whole history.
      await page.getByRole('link', { name: 'See all transactions' }).click();
      await page.getByRole('heading', { level: 1, name: 'History' }).waitFor();
      const menu = page.getByRole('navigation', { name: 'Online banking' });
      expect(await menu.getByRole('link', { name: 'History' }).getAttribute('class')).toContain('bank-nav__link--active');
      // Newest first: each own transfer is a line out of checking and a line into savings; the opening deposit is last.
      await expect.poll(async () => (await tableRows(page)).length).toBe(2 * transfers.length + 1);
      const rows = await tableRows(page);
      expect(rows[0]?.slice(0, 1)).toEqual(['Completed']);
      expect(rows[0]?.[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Each line names the other side before its message ("To Standard Savings · Holiday fund", issue 39 item 12).
      expect(rows.filter((row) => / · Holiday fund$/.test(row[2] ?? '')).map((row) => [row[3], row[4]])).toEqual(
        expect.arrayContaining([
          ['Transfer', '-$300.00'],
          ['Credit', '$300.00'],
        ]),
      );
      expect(rows.at(-1)?.[3]).toBe('Funding');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'history-01-list');
      await showColorScheme(page, 'dark');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'history-01-list-dark');
      await showColorScheme(page, 'light');

      // Filters: the search narrows to one transfer, the account to its line out of checking.
      await page.getByRole('searchbox', { name: 'Search descriptions' }).fill('groceries');
      await expect
        .poll(async () => (await tableRows(page)).map((row) => row[2]))
        .toEqual(['To Standard Savings · Groceries money', 'From your own account · Groceries money']);
      await page.getByRole('combobox', { name: 'Account', exact: true }).selectOption(accountOf(customer, 'checking').id);
      await expect
        .poll(async () => (await tableRows(page)).map((row) => [row[2], row[3], row[4]]))
        .toEqual([['To Standard Savings · Groceries money', 'Transfer', '-$42.50']]);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'history-02-filtered');

      // Details of that line, and its receipt.
      await page.getByRole('button', { name: 'Groceries money' }).click();
      const details = page.getByRole('dialog', { name: 'Details' });
      await details.waitFor();
      expect(await details.getByLabel('Amount').inputValue()).toBe('-$42.50');
      expect(await details.getByLabel('Date').inputValue()).toBe(rows[0]?.[1]);
      await details.getByText('Own account').waitFor();
      const facts = Object.fromEntries(
        await details
          .locator('dl > div')
          .evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent])),
      ) as Record<string, string>;
      expect(facts).toMatchObject({
        'Account number': accountOf(customer, 'savings').number,
        Reason: 'Groceries money',
        'Transfer medium': 'Own account',
        Status: 'Completed',
      });
      const reference = facts['Receipt reference'] ?? '';
      expect(reference).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'history-03-details');

      const receipt = await download(page, () => details.getByRole('link', { name: 'print receipt' }).click());
      expect(receipt.name).toMatch(/\.pdf$/);
      expect(receipt.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await details.getByRole('button', { name: 'Back to history' }).click();
      await details.waitFor({ state: 'hidden' });

      // 'print statement': the browser prints under the seed's title, after its delay, without navigation or filters.
      await page.evaluate(() => {
        const printed: string[] = [];
        Object.assign(window, { journeyPrintedTitles: printed });
        window.print = () => void printed.push(document.title);
      });
      const ownTitle = await page.title();
      await page.getByRole('button', { name: 'print statement' }).click();
      await page.waitForFunction(() => (window as unknown as { journeyPrintedTitles: string[] }).journeyPrintedTitles.length === 1);
      expect(await page.evaluate(() => (window as unknown as { journeyPrintedTitles: string[] }).journeyPrintedTitles)).toEqual(['Visitor Pass']);
      expect(await page.title()).toBe(ownTitle);
      await page.emulateMedia({ media: 'print' });
      expect(await page.getByRole('navigation', { name: 'Online banking' }).isVisible()).toBe(false);
      expect(await page.getByRole('search', { name: 'Filter transactions' }).isVisible()).toBe(false);
      expect(await page.getByRole('table', { name: 'Recent transactions' }).isVisible()).toBe(true);
      await saveScreenshot(page, 'identity', 'history-04-print-1280', { fullPage: true });
      await page.emulateMedia({ media: 'screen' });

      // The dashboard's Statements link lands on the statements section of History, not at its top.
      await page.goto('/dashboard');
      await page.getByRole('heading', { level: 1, name: 'Your dashboard' }).waitFor();
      await page.getByRole('link', { name: /^Statements of Easy Checking/ }).click();
      await page.waitForURL(/\/transaction-history\?account=.+#statements-title$/);
      const statementsTitle = page.getByRole('heading', { level: 2, name: 'Statements', exact: true });
      // In view, near the top of the window, or as near as the page can scroll (the section is the page's last).
      await expect
        .poll(() =>
          statementsTitle.evaluate((element) => {
            const { top, bottom } = element.getBoundingClientRect();
            const atPageEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
            return window.scrollY > 0 && top >= 0 && bottom <= window.innerHeight && (top < 200 || atPageEnd);
          }),
        )
        .toBe(true);
      expect(await statementsTitle.evaluate((element) => element === document.activeElement)).toBe(true);
      await saveScreenshot(page, 'identity', 'history-05-statements-link-1280');

      // Statements of checking for this month, in the three formats.
      const statements = page.getByRole('region', { name: 'Statements' });
      await statements.getByRole('combobox', { name: 'Statement account' }).selectOption(accountOf(customer, 'checking').id);
      const pdf = await download(page, () => statements.getByRole('link', { name: 'Download PDF' }).click());
      expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const csv = await download(page, () => statements.getByRole('link', { name: 'Download CSV' }).click());
      expect(csv.name).toMatch(/\.csv$/);
      const csvText = csv.bytes.toString('utf8');
      expect(csvText.split(/\r?\n/)[0]).toBe('date,transferId,description,category,amount,balance');
      for (const transfer of transfers) expect(csvText).toContain(transfer.message);
      const ofx = await download(page, () => statements.getByRole('link', { name: 'Download OFX' }).click());
      expect(ofx.name).toMatch(/\.ofx$/);
      expect(ofx.bytes.toString('utf8')).toContain('<STMTTRN>');
      await expectNoAxeViolations(page);

      // On a phone the history is a list, not a table that scrolls sideways.
      await page.setViewportSize(viewports.phone);
      await page.getByRole('region', { name: 'Recent transactions' }).getByRole('listitem').first().waitFor();
      expect(await page.getByRole('table', { name: 'Recent transactions' }).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectNoAxeViolations(page);
      await page.setViewportSize(viewports.desktop);

      // Whoever holds the receipt checks it at its QR code's address, without signing in.
      const { context: visitorContext, page: visitor, problems: visitorProblems } = await openPage(browser());
      await visitor.goto(`/receipts/verify/${reference}`);
      await visitor.getByRole('heading', { level: 1, name: 'Genuine receipt' }).waitFor();
      const verified = Object.fromEntries(
        await visitor
          .locator('dl > div')
          .evaluateAll((items) => items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent])),
      ) as Record<string, string>;
      expect(verified).toMatchObject({ Reference: reference, Amount: '$42.50', Status: 'Completed', Kind: 'Transfer between own accounts' });
      expect(verified['To account']).toMatch(new RegExp(`${accountOf(customer, 'savings').number.slice(-4)}$`));
      expect(JSON.stringify(verified)).not.toContain(accountOf(customer, 'savings').number);
      await expectNoAxeViolations(visitor);
      await screenshotBothWidths(visitor, 'history-05-receipt-genuine');

      await visitor.goto('/receipts/verify/0000-0000-0000-0000-0000');
      await visitor.getByRole('heading', { level: 1, name: 'We have no receipt with this reference' }).waitFor();
      await expectNoAxeViolations(visitor);
      await screenshotBothWidths(visitor, 'history-06-receipt-unknown');

      // A message as long as the field allows (140 characters, one of them a long unbroken reference)
      // wraps or is shortened in every list: no page is wider than the screen at 1280 or 390 px.
      const longMessage = `Deposit for the flat at 12 Harbour Row, ref ${'X'.repeat(48)}, paid from checking as agreed with the landlord.`
        .slice(0, 140)
        .padEnd(140, '.');
      expect(longMessage).toHaveLength(140);
      await transferOwn(page, customer, { amountCents: 1_000, message: longMessage });
      for (const [path, ready] of [
        ['/transaction-history', () => page.getByRole('table', { name: 'Recent transactions' }).getByText(longMessage).first().waitFor({ state: 'attached' })],
        ['/dashboard', () => page.getByRole('heading', { level: 1, name: 'Your dashboard' }).waitFor()],
      ] as const) {
        await page.goto(path);
        await ready();
        for (const [label, viewport] of [
          ['390', viewports.phone],
          ['1280', viewports.desktop],
        ] as const) {
          await page.setViewportSize(viewport);
          await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `${path} at ${label} px`).toBeLessThanOrEqual(viewport.width);
          await saveScreenshot(page, 'identity', `history-07-long-message${path.replaceAll('/', '-')}-${label}`, { fullPage: true });
        }
      }

      expect(problems).toEqual([]);
      expect(visitorProblems).toEqual([]);
      await visitorContext.close();
      await context.close();
    },
    journeyTimeoutMs,
  );
});
