import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { apyBps, rateForBalance } from '../products/service.ts';
import { earningsSumsOf, type EarningsQuery } from './earnings-repository.ts';
import type { ShownAccountEarnings } from './page-repository.ts';

/** Accrued interest is kept in 1/1,335,900,000 of a cent (10,000 basis points x 365 x 366, migration 0041). */
export const accrualUnitsPerCent = 1_335_900_000n;

/** Whole cents of accrued units: the fraction of a cent waits for the posting that pays it. */
function centsOfUnits(units: string): bigint {
  const value = BigInt(units);
  if (value < 0n) throw new Error(`accrued interest below zero: ${units}`);
  return value / accrualUnitsPerCent;
}

/** One account's interest and fees in the bank's current month and year. */
export interface AccountEarnings {
  /** This month's accruals, whole cents, paid or not. */
  accruedThisMonthCents: bigint;
  /** Accrued after the last statement (whose transaction posted the interest before it), this month and this year; nothing once the account is closed. */
  unpaidThisMonthCents: bigint;
  unpaidThisYearCents: bigint;
  interestPaidThisMonthCents: bigint;
  interestPaidThisYearCents: bigint;
  /** Fees charged less fees refunded. */
  feesThisMonthCents: bigint;
  feesThisYearCents: bigint;
}

const noEarnings: AccountEarnings = {
  accruedThisMonthCents: 0n,
  unpaidThisMonthCents: 0n,
  unpaidThisYearCents: 0n,
  interestPaidThisMonthCents: 0n,
  interestPaidThisYearCents: 0n,
  feesThisMonthCents: 0n,
  feesThisYearCents: 0n,
};

function earningsQueryOf(customerId: string, day: string, timeZone: string): EarningsQuery {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a date: ${day}`);
  return { customerId, yearStart: `${day.slice(0, 4)}-01-01`, monthStart: `${day.slice(0, 7)}-01`, through: day, timeZone };
}

/** Each of the customer's accounts (closed ones too) that earned or paid anything this year, by id; `day` is the bank's date. */
async function earningsByAccount(db: Queryable, customerId: string, day: string, timeZone: string): Promise<Map<string, AccountEarnings>> {
  const query = earningsQueryOf(customerId, day, timeZone);
  const { accruals, charges } = await earningsSumsOf(db, query);
  const earnings = new Map<string, AccountEarnings>();
  const of = (accountId: string) => {
    const found = earnings.get(accountId) ?? { ...noEarnings };
    earnings.set(accountId, found);
    return found;
  };
  for (const row of accruals) {
    const account = of(row.account_id);
    account.accruedThisMonthCents = centsOfUnits(row.month_units);
    // Closing an account pays its accrued interest first, with no statement after it.
    account.unpaidThisMonthCents = row.closed ? 0n : centsOfUnits(row.unpaid_month_units);
    account.unpaidThisYearCents = row.closed ? 0n : centsOfUnits(row.unpaid_year_units);
  }
  for (const row of charges) {
    const account = of(row.account_id);
    if (row.kind === 'interest') {
      account.interestPaidThisMonthCents += row.month_cents;
      account.interestPaidThisYearCents += row.year_cents;
    } else {
      const sign = row.kind === 'fee' ? 1n : -1n;
      account.feesThisMonthCents += sign * row.month_cents;
      account.feesThisYearCents += sign * row.year_cents;
    }
  }
  return earnings;
}

/** What an account shows of its product and its interest (`GET /accounts`). */
export interface AccountInterest {
  productName: string;
  interestRateBps: number;
  apyBps: number;
  interestThisMonthCents: bigint;
  interestThisYearCents: bigint;
}

/**
 * What an account on the accounts page shows of its product and interest (page-repository.ts
 * reads it with the account): its product, the rate its balance earns on the bank's date under the
 * terms in force that day (the product's base rate when there is no balance to earn it) and that
 * rate's APY, this month's accrued interest, and this year's interest: paid this year, plus accrued
 * this year and not paid yet.
 */
export function shownAccountInterest(
  account: { id: string; productId: string; balanceCents: bigint; earnings: ShownAccountEarnings },
  day: string,
): AccountInterest {
  const { productName, interestTiers, monthUnits, unpaidYearUnits, interestPaidYearCents } = account.earnings;
  if (productName === null) throw new Error(`account ${account.id} is of product ${account.productId}, which is not in the catalogue`);
  if (interestTiers === null) throw new Error(`product ${productName} has no terms in force on ${day}`);
  const rateBps = account.balanceCents > 0n ? rateForBalance(interestTiers, account.balanceCents) : (interestTiers[0]?.rateBps ?? 0);
  return {
    productName,
    interestRateBps: rateBps,
    apyBps: apyBps(rateBps),
    interestThisMonthCents: centsOfUnits(monthUnits),
    interestThisYearCents: interestPaidYearCents + centsOfUnits(unpaidYearUnits),
  };
}

export interface CustomerEarnings {
  interestThisMonthCents: bigint;
  interestThisYearCents: bigint;
  feesThisMonthCents: bigint;
  feesThisYearCents: bigint;
}

/**
 * The dashboard's interest earned and fees paid, all the customer's accounts (closed ones too), in
 * the bank's month and year: interest paid in the period plus interest accrued in it and not paid
 * yet (whole cents, account by account); fees charged in the period less fees refunded in it.
 */
export async function customerEarnings(db: Queryable, config: Pick<Config, 'bankTimeZone'>, customerId: string, clock?: Clock): Promise<CustomerEarnings> {
  const day = await bankDate(db, config, clock);
  const totals: CustomerEarnings = { interestThisMonthCents: 0n, interestThisYearCents: 0n, feesThisMonthCents: 0n, feesThisYearCents: 0n };
  for (const account of (await earningsByAccount(db, customerId, day, config.bankTimeZone)).values()) {
    totals.interestThisMonthCents += account.interestPaidThisMonthCents + account.unpaidThisMonthCents;
    totals.interestThisYearCents += account.interestPaidThisYearCents + account.unpaidThisYearCents;
    totals.feesThisMonthCents += account.feesThisMonthCents;
    totals.feesThisYearCents += account.feesThisYearCents;
  }
  return totals;
}
