import { randomInt, randomUUID } from 'node:crypto';
import {
  referralBonusCents,
  referralCodeAlphabet,
  referralCodeLength,
  referralListLimit,
  referralMessages,
  type ReferralList,
  type ReferralResponse,
} from '@strongroom/contracts/referrals.ts';
import type { Queryable } from '../../db/database.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { findCodeOwner, findReferralCode, insertReferral, insertReferralCode, listReferrals, referralTotals } from './repository.ts';

/** A random code is tried again this many times if another customer already holds it (32^8 codes). */
const codeAttempts = 10;

function randomCode(): string {
  let code = '';
  for (let index = 0; index < referralCodeLength; index += 1) code += referralCodeAlphabet[randomInt(referralCodeAlphabet.length)];
  return code;
}

/** The customer's code, made the first time it is asked for and the same ever after. */
async function ownCode(db: Queryable, customerId: string): Promise<string> {
  for (let attempt = 0; attempt < codeAttempts; attempt += 1) {
    const existing = await findReferralCode(db, customerId);
    if (existing) return existing;
    await insertReferralCode(db, customerId, randomCode());
  }
  const code = await findReferralCode(db, customerId);
  if (!code) throw new Error(`no free referral code after ${codeAttempts} attempts`);
  return code;
}

export async function referralOf(db: Queryable, publicUrl: string, customerId: string): Promise<ReferralResponse> {
  const code = await ownCode(db, customerId);
  return { code, link: `${publicUrl}/signup?ref=${code}` };
}

export async function referralListOf(db: Queryable, customerId: string): Promise<ReferralList> {
  const [rows, totals] = await Promise.all([listReferrals(db, customerId, referralListLimit), referralTotals(db, customerId)]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      // A bonus held for staff's check reads as waiting: it may still be paid, and a referrer who
      // signed up again as their own friend learns nothing from it.
      status: row.status === 'held' ? 'pending' : row.status,
      bonusCents: Number(row.bonus_cents),
      createdAt: row.created_at.toISOString(),
      paidAt: row.paid_at?.toISOString() ?? null,
    })),
    pendingCount: totals.pending,
    paidCount: totals.paid,
    paidCents: Number(totals.paidCents),
  };
}

/**
 * Sign-up's `referralCode`: the customer who owns it, or a field error. Checked before anything is
 * written, so a refused sign-up changes nothing (decision 032: refused, not silently ignored).
 */
export async function referrerOfCode(db: Queryable, code: string): Promise<string> {
  const owner = await findCodeOwner(db, code);
  if (!owner) throw new AppError('validation_failed', 'Some fields are not valid', { fields: { referralCode: referralMessages.unknownCode } });
  return owner;
}

/**
 * Written in sign-up's transaction with the new customer. A new customer can never be the code's
 * owner (the code existed before them); the database refuses it anyway.
 */
export async function recordReferral(tx: Queryable, referrerCustomerId: string, referredCustomerId: string): Promise<void> {
  if (referrerCustomerId === referredCustomerId) return;
  await insertReferral(tx, {
    id: randomUUID(),
    referrerCustomerId,
    referredCustomerId,
    bonusCents: referralBonusCents,
    bonusTransferId: bonusTransferIdOf(referredCustomerId),
  });
}

/** One bonus per referred customer, whoever asks and however often: the ledger answers `exists` to a repeat. */
export function bonusTransferIdOf(referredCustomerId: string): string {
  return derivedUuid('referral-bonus', referredCustomerId);
}

// What the other modules use of referrals: the bonus paid once an identity is approved (settlement.ts),
// and the hold on a friend who may be the referrer again (held-bonuses.ts, decision 051).
export { settleReferralBonuses, type ReferralDependencies } from './settlement.ts';
export { decideHeldBonus, duplicatesOf, holdBonusOfDuplicate, referralBonusOf, type HeldBonusDecision } from './held-bonuses.ts';
