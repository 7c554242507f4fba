import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { checkLedger } from '../../ledger/check-ledger.ts';
import { addDays, nextBusinessDay } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { feeDecision } from './cycle-close.ts';

/**
 * Issue 32 item 4: the monthly maintenance fee at each cycle's end: waived when the lowest daily
 * balance reached the product's minimum, or the month's deposits reached its amount; otherwise
 * charged, but never beyond what the account has available (the rest is waived, no overdraft).
 * The months are the one the accounts open in and the two after it, whatever today is.
 */
const goldChecking = '00000000-0000-4000-8000-00000000d002';
const timeZone = 'America/New_York';

function monthEndAfter(day: string, months: number): string {
  const [year = 0, month = 0] = day.split('-').map(Number);
  return new Date(Date.UTC(year, month + months, 0)).toISOString().slice(0, 10);
}

describeEachDatabase('end of day: monthly fees and their waivers', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));

  const cycleOf = async (who: PayingCustomer, periodEnd: string) => {
    const [statement] = await database().query<{ fee_note: string | null; fees_cents: bigint; closing_balance_cents: bigint }>(
      'SELECT fee_note, fees_cents, closing_balance_cents FROM monthly_statements WHERE account_id = $1 AND period_end = $2::date',
      [who.checking.id, periodEnd],
    );
    const fees = await database().query<{ amount_cents: bigint; day: string }>(
      `SELECT amount_cents, (created_at AT TIME ZONE $3)::date::text AS day FROM payments
        WHERE kind = 'fee' AND from_account_id = $1 AND (created_at AT TIME ZONE $3)::date = $2::date`,
      [who.checking.id, periodEnd, timeZone],
    );
    return {
      note: statement?.fee_note,
      feesCents: statement?.fees_cents,
      closing: statement?.closing_balance_cents,
      charged: fees.map((fee) => fee.amount_cents),
    };
  };

  it('waives by balance and by deposits, charges when neither is met, and charges only what the balance covers', async () => {
    // Gold Checking ($14.95; waived at $5,000.00 every day or $2,500.00 of deposits) with $6,000.00 in it.
    const rich = await kit.customer({ fundCents: 600_000n });
    await database().query('UPDATE customer_accounts SET product_id = $2 WHERE id = $1', [rich.checking.id, goldChecking]);
    // Easy Checking ($6.95; waived at $1,500.00 every day or $500.00 of deposits): $1,000.00 opened with, nothing after.
    const modest = await kit.customer({ fundCents: 100_000n });
    // Easy Checking left with $3.00 after $997.00 went to savings.
    const thin = await kit.customer({ fundCents: 100_000n, savingsCents: 99_700 });

    const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const [first, second, third] = [monthEndAfter(today, 0), monthEndAfter(today, 1), monthEndAfter(today, 2)];
    const run = await runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'end-of-day', [
      '--through',
      addDays(third, 7),
    ]);
    expect(run.exitCode, run.output).toBe(0);
    const result = JSON.parse(run.output) as { days: string[]; feesChargedCents: number };

    // The month they opened in: the opening deposits count as deposits.
    expect(await cycleOf(rich, first)).toMatchObject({
      note: 'Monthly maintenance fee of $14.95 waived: the balance stayed at or above $5,000.00 every day.',
      charged: [],
      feesCents: 0n,
    });
    expect(await cycleOf(modest, first)).toMatchObject({ note: 'Monthly maintenance fee of $6.95 waived: deposits this month reached $500.00.', charged: [] });
    expect(await cycleOf(thin, first)).toMatchObject({ note: 'Monthly maintenance fee of $6.95 waived: deposits this month reached $500.00.', charged: [] });

    // The next month, without deposits.
    expect(await cycleOf(rich, second)).toMatchObject({
      note: 'Monthly maintenance fee of $14.95 waived: the balance stayed at or above $5,000.00 every day.',
    });
    expect(await cycleOf(modest, second)).toMatchObject({ note: 'Monthly maintenance fee of $6.95 charged.', charged: [695n], feesCents: 695n });
    expect(await cycleOf(thin, second)).toMatchObject({
      note: 'Monthly maintenance fee of $6.95: $3.00 charged; the $3.95 the balance could not cover is waived.',
      charged: [300n],
      feesCents: 300n,
      closing: 0n,
    });
    // And the one after: nothing left to take, and never below zero.
    expect(await cycleOf(thin, third)).toMatchObject({ note: 'Monthly maintenance fee of $6.95 waived: the balance could not cover it.', charged: [] });
    expect(await cycleOf(modest, third)).toMatchObject({ charged: [695n] });
    expect(await kit.balances(thin)).toMatchObject({ checking: { balanceCents: 0, availableCents: 0 } });
    expect((await kit.balances(modest)).checking.balanceCents).toBe(100_000 - 2 * 695);
    expect(result.feesChargedCents).toBe(695 + 300 + 695);
    const [fees] = await database().query<{ fees: bigint }>(
      'SELECT fees_year_cents AS fees FROM monthly_statements WHERE account_id = $1 AND period_end = $2',
      [modest.checking.id, third],
    );
    expect(fees?.fees).toBe(third.slice(0, 4) === second.slice(0, 4) ? 1_390n : 695n);
    expect((await checkLedger(database())).violations).toEqual([]);
  });

  it('counts a waiver by deposits only when a rule exists, and takes the balance rule first', () => {
    const terms = { monthly_fee_cents: 2_495n, waiver_min_daily_balance_cents: 1_500_000n, waiver_monthly_deposits_cents: null };
    expect(feeDecision(terms, { lowestDailyBalanceCents: 1_499_999n, depositsCents: 10_000_000n, availableCents: 1_499_999n })).toEqual({
      chargeCents: 2_495n,
      note: 'Monthly maintenance fee of $24.95 charged.',
    });
    expect(feeDecision(terms, { lowestDailyBalanceCents: 1_500_000n, depositsCents: 0n, availableCents: 0n }).chargeCents).toBe(0n);
    expect(feeDecision({ ...terms, monthly_fee_cents: 0n }, { lowestDailyBalanceCents: 0n, depositsCents: 0n, availableCents: 100n })).toEqual({
      chargeCents: 0n,
      note: null,
    });
    expect(feeDecision(terms, { lowestDailyBalanceCents: -500n, depositsCents: 0n, availableCents: -500n })).toEqual({
      chargeCents: 0n,
      note: 'Monthly maintenance fee of $24.95 waived: the balance could not cover it.',
    });
  });
});

describeEachDatabase('end of day: an account closed during the month', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));

  it('gets its final statement at the month end, with no fee and nothing posted after its close', async () => {
    const saver = await kit.customer({ fundCents: 100_000n, savingsCents: 50_000 });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    const nextMonthEnd = monthEndAfter(today, 1);
    const ops = (through: string) =>
      runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'end-of-day', ['--through', through]);
    // Closed on the first business day from the 10th: end of day runs business days only, and
    // covers a weekend or holiday with the business day after it (a Sunday 10th was run on Friday the 8th).
    const closeDay = nextBusinessDay(`${nextMonthEnd.slice(0, 8)}09`);
    expect((await ops(closeDay)).exitCode).toBe(0);
    // Closed as the close does it: the whole balance moved out, then the account marked closed.
    const [ledger] = await database().query<{ balance: bigint }>(
      'SELECT l.credits_posted - l.debits_posted AS balance FROM customer_accounts a JOIN ledger_accounts l ON l.id = a.ledger_account_id WHERE a.id = $1',
      [saver.savings.id],
    );
    const moved = await kit.pay(saver, '/transfers', {
      kind: 'own',
      fromAccountId: saver.savings.id,
      toAccountId: saver.checking.id,
      amountCents: Number(ledger!.balance),
      message: 'Closing',
    });
    expect(moved.statusCode, moved.body).toBe(201);
    await database().query("UPDATE customer_accounts SET status = 'closed', closed_at = now() WHERE id = $1", [saver.savings.id]);
    const interestBefore = await database().query("SELECT id FROM payments WHERE kind = 'interest' AND to_account_id = $1", [saver.savings.id]);

    expect((await ops(addDays(nextMonthEnd, 5))).exitCode).toBe(0);
    const [final] = await database().query<{
      period_start: string;
      days: number;
      closing_balance_cents: bigint;
      fee_note: string | null;
      interest_cents: bigint;
    }>(
      `SELECT period_start::text AS period_start, days, closing_balance_cents, fee_note, interest_cents FROM monthly_statements
        WHERE account_id = $1 AND period_end = $2::date`,
      [saver.savings.id, nextMonthEnd],
    );
    expect(final).toEqual({
      period_start: `${nextMonthEnd.slice(0, 8)}01`,
      days: Number(closeDay.slice(8)),
      closing_balance_cents: 0n,
      fee_note: null,
      interest_cents: 0n,
    });
    expect(await database().query("SELECT id FROM payments WHERE kind = 'interest' AND to_account_id = $1", [saver.savings.id])).toEqual(interestBefore);
    // Nothing after it: no accrual on a day after its close, no statement after its final one.
    expect(await database().query('SELECT day FROM interest_accruals WHERE account_id = $1 AND day > $2::date', [saver.savings.id, closeDay])).toEqual([]);
    expect((await ops(addDays(monthEndAfter(today, 2), 5))).exitCode).toBe(0);
    expect(
      await database().query('SELECT id FROM monthly_statements WHERE account_id = $1 AND period_end > $2::date', [saver.savings.id, nextMonthEnd]),
    ).toEqual([]);
    expect((await checkLedger(database())).violations).toEqual([]);
  });
});
