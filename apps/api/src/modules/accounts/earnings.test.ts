import { randomUUID } from 'node:crypto';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { DashboardSummary } from '@strongroom/contracts/dashboard.ts';
import { beforeAll, expect, it } from 'vitest';
import type { Clock } from '../../db/clock.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { recordingStatements, type RecordedStatement } from '../../test/recording-database.ts';
import { moveMoney, type MovementKind } from '../payments/move-money.ts';
import { accountsWithEarnings } from './service.ts';

const platinumChecking = '00000000-0000-4000-8000-00000000d003';
const standardSavings = '00000000-0000-4000-8000-00000000d004';
/** Accrued interest is kept in 1/1,335,900,000 of a cent: a day of a 365-day year earns balance x rate x 366 units. */
const unitsPerCent = 1_335_900_000n;
const dailyUnits = (balanceCents: bigint, rateBps: bigint) => balanceCents * rateBps * 366n;

/** The days of March 2031 before the bank's date, 2031-03-20. */
const marchDays = Array.from({ length: 19 }, (_, index) => `2031-03-${String(index + 1).padStart(2, '0')}`);

/**
 * Issue 32 item 7: each account shows its product, the rate its balance earns and that rate's APY,
 * and the interest it earned this month and this year; the dashboard shows interest earned and fees
 * paid. The bank's date is run ahead to 2031-03-20 (a sandbox's end of day), so the figures are of
 * the bank's calendar, not the clock's.
 */
describeEachDatabase('accounts and the dashboard show interest earned and fees paid in the bank’s month and year', (database) => {
  const kit = paymentSuite(database, () => undefined, {
    environment: { RAIL_SPEED: 'instant', KYC_AUTO_APPROVE_SECONDS: 'off', BANK_TIME_ZONE: 'America/New_York' },
  });
  let saver: PayingCustomer;
  let stranger: PayingCustomer;

  /** Interest, a fee or a fee refund, moved as the end-of-day job moves them, dated `at` (the job's clock in a sandbox run ahead). */
  async function move(who: PayingCustomer, kind: MovementKind, accountId: string, amountCents: bigint, at: string): Promise<void> {
    const clock: Clock = { now: () => new Date(at) };
    const outward = kind === 'fee';
    const result = await database().transaction((tx) =>
      moveMoney(
        tx,
        {
          id: randomUUID(),
          kind,
          customerId: who.id,
          fromAccountId: outward ? accountId : null,
          toAccountId: outward ? null : accountId,
          amountCents,
          counterpartyName: 'Strongroom Demo Bank',
          message: kind,
        },
        clock,
      ),
    );
    expect(result.outcome).toBe('made');
  }

  async function accrue(accountId: string, days: readonly string[], balanceCents: bigint, rateBps: bigint): Promise<bigint> {
    for (const day of days) {
      await database().query('INSERT INTO interest_accruals (account_id, day, balance_cents, rate_bps, accrued_units) VALUES ($1, $2, $3, $4, $5)', [
        accountId,
        day,
        balanceCents,
        Number(rateBps),
        dailyUnits(balanceCents, rateBps).toString(),
      ]);
    }
    return dailyUnits(balanceCents, rateBps) * BigInt(days.length);
  }

  let savingsMarchUnits: bigint;
  let checkingMarchUnits: bigint;

  beforeAll(async () => {
    // $40,000 in: $10,000 in Standard Savings, $30,000 in checking, made a Platinum Checking (25 bps from $25,000).
    saver = await kit.customer({ fundCents: 4_000_000n, savingsCents: 1_000_000 });
    stranger = await kit.customer({ fundCents: 0n });
    await database().query('UPDATE customer_accounts SET product_id = $2 WHERE id = $1', [saver.checking.id, platinumChecking]);
    // The bank's end of day ran ahead to 2031-03-20; Standard Savings pays 1.75% from March 1 and 3.00% only from April 1.
    await database().query(`INSERT INTO business_days (day, covers_from, status, finished_at) VALUES ('2031-03-20', '2031-03-20', 'done', now())`);
    await database().query(
      `INSERT INTO deposit_product_terms (id, product_id, effective_from, monthly_fee_cents, opening_deposit_cents, interest_tiers, reason) VALUES
         ($1, $3, '2031-03-01', 0, 50000, '[{"fromCents": 0, "rateBps": 175}]', 'A rate rise'),
         ($2, $3, '2031-04-01', 0, 50000, '[{"fromCents": 0, "rateBps": 300}]', 'A rate rise to come')`,
      [randomUUID(), randomUUID(), standardSavings],
    );
  });

  beforeAll(async () => {
    // Savings: February's last days (paid by February's posting, its statement's period ends on the 28th), then March so far.
    await accrue(saver.savings.id, ['2031-02-25', '2031-02-26', '2031-02-27', '2031-02-28'], 1_000_000n, 150n);
    savingsMarchUnits = await accrue(saver.savings.id, marchDays, 1_000_000n, 175n);
    checkingMarchUnits = await accrue(saver.checking.id, marchDays, 3_000_000n, 25n);
    // Interest paid on the last evening of December 2030 (New York; already 2031 in UTC), January and February.
    await move(saver, 'interest', saver.savings.id, 1_200n, '2031-01-01T04:30:00Z');
    await move(saver, 'interest', saver.savings.id, 1_274n, '2031-01-31T23:00:00-05:00');
    await move(saver, 'interest', saver.savings.id, 1_151n, '2031-02-28T23:00:00-05:00');
    await database().query(
      `INSERT INTO monthly_statements (id, account_id, customer_id, period_start, period_end, after_sequence, through_sequence, opening_balance_cents,
         closing_balance_cents, credits_cents, debits_cents, average_daily_balance_cents, days, interest_cents, interest_year_cents, fees_cents, fees_year_cents, apy_earned_bps)
       VALUES ($1, $2, $3, '2031-02-01', '2031-02-28', 0, 0, 998849, 1000000, 1151, 0, 1000000, 28, 1151, 2425, 0, 0, 151)`,
      [randomUUID(), saver.savings.id, saver.id],
    );
    // Checking: February's fee on its last evening (March 1 in UTC), March's, and February's refunded in March.
    await move(saver, 'fee', saver.checking.id, 695n, '2031-02-28T23:30:00-05:00');
    await move(saver, 'fee', saver.checking.id, 1_495n, '2031-03-01T00:30:00-05:00');
    await move(saver, 'fee_refund', saver.checking.id, 695n, '2031-03-05T12:00:00-05:00');
  });

  async function accountsOf(who: PayingCustomer): Promise<Record<'checking' | 'savings', Account>> {
    const response = await who.browser.get('/api/v1/accounts');
    expect(response.statusCode, response.body).toBe(200);
    const accounts = response.json<Account[]>();
    const of = (type: 'checking' | 'savings') => {
      const account = accounts.find((item) => item.type === type);
      if (!account) throw new Error(`no ${type} account`);
      return account;
    };
    return { checking: of('checking'), savings: of('savings') };
  }

  async function dashboardOf(who: PayingCustomer): Promise<DashboardSummary> {
    const response = await who.browser.get('/api/v1/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<DashboardSummary>();
  }

  it('shows each account’s product, and the rate its balance earns under the terms in force on the bank’s date, with its APY', async () => {
    const { checking, savings } = await accountsOf(saver);
    expect(savings).toMatchObject({
      productId: standardSavings,
      productName: 'Standard Savings',
      interestRateBps: 175,
      apyBps: 176,
      status: 'open',
      active: true,
    });
    // $29,985.05 after the fees reaches Platinum Checking's $25,000 tier.
    expect(checking).toMatchObject({
      productId: platinumChecking,
      productName: 'Platinum Checking',
      interestRateBps: 25,
      apyBps: 25,
      status: 'open',
      active: true,
    });
  });

  it('shows this month’s accrued interest in whole cents, and this year’s: paid this year plus accrued and not paid yet', async () => {
    const { checking, savings } = await accountsOf(saver);
    const savingsMonthCents = savingsMarchUnits / unitsPerCent;
    const checkingMonthCents = checkingMarchUnits / unitsPerCent;
    expect([savingsMonthCents, checkingMonthCents]).toEqual([910n, 390n]);
    expect(savings.interestThisMonthCents).toBe(910);
    // January's 12.74 and February's 11.51 paid, March's 9.10 accrued; December's 12.00 was paid last year in New York.
    expect(savings.interestThisYearCents).toBe(1_274 + 1_151 + 910);
    expect(checking.interestThisMonthCents).toBe(390);
    expect(checking.interestThisYearCents).toBe(390);
  });

  it('shows on the dashboard the interest earned and the fees paid, less fees refunded, this month and this year', async () => {
    expect(await dashboardOf(saver)).toMatchObject({
      interestEarnedCents: 910 + 390,
      interestEarnedYearCents: 1_274 + 1_151 + 910 + 390,
      feesPaidCents: 1_495 - 695,
      feesPaidYearCents: 695 + 1_495 - 695,
    });
  });

  it('another customer sees none of it: nothing earned, nothing paid, and the base rate on a balance of zero', async () => {
    const { checking, savings } = await accountsOf(stranger);
    expect(savings).toMatchObject({ productName: 'Standard Savings', interestRateBps: 175, apyBps: 176, interestThisMonthCents: 0, interestThisYearCents: 0 });
    expect(checking).toMatchObject({ productName: 'Easy Checking', interestRateBps: 0, apyBps: 0, interestThisMonthCents: 0, interestThisYearCents: 0 });
    expect(await dashboardOf(stranger)).toMatchObject({ interestEarnedCents: 0, interestEarnedYearCents: 0, feesPaidCents: 0, feesPaidYearCents: 0 });
  });

  it('reads the accounts pages asked for together, with the bank’s date, the terms in force and the interest, in one statement', async () => {
    const statements: RecordedStatement[] = [];
    const recording = recordingStatements(database(), statements);
    const config = { bankTimeZone: 'America/New_York' };
    const [ofSaver, ofStranger] = await Promise.all([
      accountsWithEarnings(recording, config, saver.id, true),
      accountsWithEarnings(recording, config, stranger.id, true),
    ]);
    expect(statements).toHaveLength(1);
    const savings = ofSaver.find((account) => account.id === saver.savings.id);
    expect(savings).toMatchObject({
      productName: 'Standard Savings',
      interestRateBps: 175,
      apyBps: 176,
      interestThisMonthCents: 910n,
      interestThisYearCents: BigInt(1_274 + 1_151 + 910),
    });
    expect(ofStranger.find((account) => account.id === stranger.savings.id)).toMatchObject({
      interestRateBps: 175,
      interestThisYearCents: 0n,
    });
  });
});
