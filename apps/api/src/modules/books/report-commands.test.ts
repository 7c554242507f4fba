import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfersIn } from '../../ledger/create-transfers.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { openCustomerAccount } from '../../test/ledger.ts';
import { paymentSuite } from '../../test/payments.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { closeBooksThrough } from './close.ts';
import { balanceSheet, incomeStatement, trialBalance } from './reports.ts';

/**
 * Issue 35 item 5 (PRODUCT.md section 7, "The bank's books"; docs/books.md, "Checks"): the reports
 * from the ops CLI as JSON with integer cents, and check-books, which exits 1 naming what no longer
 * ties: a closed day whose ledger rows changed, customer deposits apart from the customer accounts,
 * a ledger account code without a place in the chart.
 */
describeEachDatabase('the books from the ops CLI', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));
  let today: string;
  const ops = (command: string, args: string[]) =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, command, args);

  beforeAll(async () => {
    await kit.customer({ fundCents: 300_000n, savingsCents: 50_000 });
    today = await bankDate(database(), config);
  });

  it('prints the trial balance, the balance sheet and the income statement as the back office has them, cents as numbers', async () => {
    const trial = await ops('trial-balance', ['--as-of', today]);
    expect(trial.exitCode, trial.output).toBe(0);
    expect(JSON.parse(trial.output)).toEqual(await trialBalance(database(), today));
    expect(trial.output).toMatch(/"creditCents": 250000\b/);
    const sheet = await ops('balance-sheet', ['--as-of', today]);
    expect(sheet.exitCode, sheet.output).toBe(0);
    expect(JSON.parse(sheet.output)).toEqual(await balanceSheet(database(), today));
    expect(JSON.parse(sheet.output).customerDeposits).toEqual({ balanceSheetCents: 300_000, customerAccountsCents: 300_000, tied: true });
    const income = await ops('income-statement', ['--to', today, '--from', `${today.slice(0, 4)}-01-01`]);
    expect(income.exitCode, income.output).toBe(0);
    expect(JSON.parse(income.output)).toEqual(await incomeStatement(database(), `${today.slice(0, 4)}-01-01`, today));
  });

  it('answers a usage mistake with exit code 2', async () => {
    for (const [command, args] of [
      ['trial-balance', []],
      ['trial-balance', ['--as-of']],
      ['trial-balance', ['--as-of', '2026-13-01']],
      ['balance-sheet', ['--on', today]],
      ['income-statement', ['--from', today]],
      ['income-statement', ['--from', today, '--from', today]],
      ['income-statement', ['--from', today, '--to', addDays(today, -1)]],
      ['check-books', ['--now']],
    ] as const) {
      const result = await ops(command, [...args]);
      expect(result.exitCode, `${command} ${args.join(' ')}`).toBe(2);
      expect(result.output).toContain('Usage: npm run ops -- ');
    }
  });

  it('check-books passes while the books tie, then names each thing that no longer does', async () => {
    const yesterday = addDays(today, -1);
    await closeBooksThrough(database(), yesterday, 'report-commands-test');
    const clean = await ops('check-books', []);
    expect(clean.exitCode, clean.output).toBe(0);
    expect(JSON.parse(clean.output)).toEqual({ ok: true, asOf: today, closedDaysChecked: 1, violations: [] });

    // Customer deposits the ledger holds for nobody: a deposit account no customer account points at.
    await openCustomerAccount(database(), 4_200n);
    const untied = await ops('check-books', []);
    expect(untied.exitCode).toBe(1);
    expect(JSON.parse(untied.output).violations).toEqual([
      { check: 'customer_deposits_untied', detail: `${today}: customer deposits 304200 on the balance sheet, 300000 in the customer accounts` },
    ]);

    // A posting slipped into the closed day past the trigger that dates transfers (a defect this check exists to find).
    await database().transaction(async (tx) => {
      await tx.query('ALTER TABLE ledger_transfers DISABLE TRIGGER ledger_transfers_posted_on');
      await tx.query(`ALTER TABLE ledger_transfers ALTER COLUMN posted_on SET DEFAULT '${yesterday}'`);
      const [outcome] = await createTransfersIn(tx, [
        {
          id: randomUUID(),
          debitAccountId: operatorAccounts.marketingExpense,
          creditAccountId: operatorAccounts.settlementAch,
          amountCents: 999n,
          ledger: 840,
          code: transferCodes.referralBonus,
        },
      ]);
      expect(outcome?.result).toBe('ok');
      await tx.query('ALTER TABLE ledger_transfers ALTER COLUMN posted_on DROP DEFAULT');
      await tx.query('ALTER TABLE ledger_transfers ENABLE TRIGGER ledger_transfers_posted_on');
    });
    const changed = JSON.parse((await ops('check-books', [])).output) as { violations: { check: string; detail: string }[] };
    expect(changed.violations.filter((violation) => violation.check === 'closed_day_changed').map((violation) => violation.detail)).toEqual([
      `${yesterday} 1010: closed with debits 0 credits 0, the ledger now gives debits 0 credits 999`,
      `${yesterday} 5100: closed with debits 0 credits 0, the ledger now gives debits 999 credits 0`,
    ]);

    // A ledger account of a code the chart does not know.
    await database().query(`INSERT INTO ledger_accounts (id, ledger, code, flags) VALUES ($1, 840, 999, 0)`, [randomUUID()]);
    const unmapped = await ops('check-books', []);
    expect(unmapped.exitCode).toBe(1);
    expect(JSON.parse(unmapped.output)).toMatchObject({
      ok: false,
      violations: [{ check: 'unmapped_code', detail: 'ledger account code 999 has no general-ledger account' }],
    });
  });
});
