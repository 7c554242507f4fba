import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';

import { firstPaidAt, newPayeeSpendLastDay } from './repository.ts';

/**
 * Review holds (PRODUCT.md D1): a payment that matches a rule is held, its money reserved, until
 * staff release or reject it. Nothing is asked of the customer. Defaults: a single payment of
 * $10,000 or more; more than $3,000 within 24 hours to payees first paid within those 24 hours.
 */
export type ReviewRules = Config['reviewRules'];

const dayMs = 24 * 3_600_000;

export async function reviewReasonFor(
  db: Queryable,
  rules: ReviewRules,
  payment: { customerId: string; amountCents: bigint; payeeKey: string | null },
  now: Date,
): Promise<string | null> {
  if (payment.amountCents >= rules.singleTransferCents) return `A single payment of ${formatMoney(rules.singleTransferCents)} or more`;
  if (payment.payeeKey === null) return null;
  const firstAt = await firstPaidAt(db, payment.customerId, payment.payeeKey);
  const payeeIsNew = firstAt === null || now.getTime() - firstAt.getTime() < dayMs;
  if (!payeeIsNew) return null;
  const spent = await newPayeeSpendLastDay(db, payment.customerId);
  if (spent + payment.amountCents > rules.newPayeeDailyCents) return `More than ${formatMoney(rules.newPayeeDailyCents)} within 24 hours to new payees`;
  return null;
}
