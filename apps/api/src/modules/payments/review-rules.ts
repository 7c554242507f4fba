import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';

import { reviewFacts } from './review-repository.ts';

/**
 * Review holds (docs/product.md D1): a payment that matches a rule is held, its money reserved, until
 * staff release or reject it. Nothing is asked of the customer. Defaults: a single payment of
 * $10,000 or more; more than $3,000 within 24 hours to payees first paid within those 24 hours.
 */
export type ReviewRules = Config['reviewRules'];

export interface ReviewCandidate {
  customerId: string;
  amountCents: bigint;
  payeeKey: string | null;
}

const dayMs = 24 * 3_600_000;

export async function reviewReasonFor(db: Queryable, rules: ReviewRules, payment: ReviewCandidate, now: Date): Promise<string | null> {
  const [reason] = await reviewReasonsFor(db, rules, [payment], now);
  return reason ?? null;
}

/**
 * The rule each of several payments matches (or null), as if each had been decided alone in the
 * order given, each seeing the ones before it: the earlier payments' facts are read in one
 * statement, and each payment of the list then counts for the ones after it (a payee paid first
 * in the list is new to the later ones, and what went to new payees adds up). The caller holds the
 * customers' row locks, so no other payment of theirs can come in between.
 */
export async function reviewReasonsFor(db: Queryable, rules: ReviewRules, payments: readonly ReviewCandidate[], now: Date): Promise<Array<string | null>> {
  const keyed = payments.filter((payment): payment is ReviewCandidate & { payeeKey: string } => payment.payeeKey !== null);
  const facts = await reviewFacts(
    db,
    keyed.map(({ customerId, payeeKey }) => ({ customerId, payeeKey })),
  );
  const firstPaid = new Map<string, Date | null>();
  const spent = new Map<string, bigint>();
  keyed.forEach(({ customerId, payeeKey }, index) => {
    const fact = facts[index];
    if (!fact) throw new Error(`no review facts for payment ${index}`);
    firstPaid.set(pairKey(customerId, payeeKey), fact.firstPaidAt);
    spent.set(customerId, fact.newPayeeSpendCents);
  });

  return payments.map((payment) => {
    if (payment.payeeKey === null) return payment.amountCents >= rules.singleTransferCents ? singleReason(rules) : null;
    const pair = pairKey(payment.customerId, payment.payeeKey);
    const firstAt = firstPaid.get(pair) ?? null;
    const payeeIsNew = firstAt === null || now.getTime() - firstAt.getTime() < dayMs;
    const spentBefore = spent.get(payment.customerId) ?? 0n;
    // This payment is one the later ones see: its payee is paid from now on, and if the payee is
    // new its amount is spent on new payees.
    if (firstAt === null) firstPaid.set(pair, now);
    if (payeeIsNew) spent.set(payment.customerId, spentBefore + payment.amountCents);

    if (payment.amountCents >= rules.singleTransferCents) return singleReason(rules);
    if (!payeeIsNew) return null;
    if (spentBefore + payment.amountCents > rules.newPayeeDailyCents) return `More than ${formatMoney(rules.newPayeeDailyCents)} within 24 hours to new payees`;
    return null;
  });
}

function singleReason(rules: ReviewRules): string {
  return `A single payment of ${formatMoney(rules.singleTransferCents)} or more`;
}

function pairKey(customerId: string, payeeKey: string): string {
  return `${customerId}\u0000${payeeKey}`;
}
