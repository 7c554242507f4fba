import { randomInt, randomUUID } from 'node:crypto';
import { formatMoney } from '@strongroom/contracts/money.ts';
import {
  referralBonusCents,
  referralCodeAlphabet,
  referralCodeLength,
  referralListLimit,
  referralMessages,
  type ReferralList,
  type ReferralResponse,
} from '@strongroom/contracts/referrals.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { recordAudit } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import {
  dueBonuses,
  findCodeOwner,
  findReferralCode,
  insertBonusPayment,
  insertReferral,
  insertReferralCode,
  listReferrals,
  markReferralPaid,
  referralTotals,
} from './repository.ts';

/** A random code is tried again this many times if another customer already holds it (32^8 codes). */
const codeAttempts = 10;
/** Bonuses paid in one settlement call; a customer who referred more is paid on the next approval. */
const bonusesPerSettlement = 100;

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
      status: row.status,
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

export interface ReferralDependencies {
  db: Database;
  liveEvents: LiveEvents;
  bankName: string;
}

/**
 * Pays every bonus that has become due for a customer whose identity was just approved, on either
 * side: as the referred friend (their referrer is paid) or as a referrer who had no checking
 * account yet when a friend was approved. Safe to call again: the transfer id is derived from the
 * referred customer, and only the caller that marks the referral paid writes the line and notice.
 */
export async function settleReferralBonuses(dependencies: ReferralDependencies, customerId: string): Promise<number> {
  const { db } = dependencies;
  let paid = 0;
  for (const due of await dueBonuses(db, customerId, bonusesPerSettlement)) {
    const [outcome] = await createTransfers(db, [
      {
        id: due.bonus_transfer_id,
        debitAccountId: operatorAccounts.marketingExpense,
        creditAccountId: due.checking_ledger_account_id,
        amountCents: due.bonus_cents,
        ledger: ledgers.usd,
        code: transferCodes.referralBonus,
      },
    ]);
    if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists')) {
      throw new Error(`the ledger refused the referral bonus ${due.id}: ${outcome?.result ?? 'no result'}`);
    }
    const marked = await db.transaction(async (tx) => {
      if (!(await markReferralPaid(tx, due.id))) return false;
      await insertBonusPayment(tx, {
        id: due.bonus_transfer_id,
        customerId: due.referrer_customer_id,
        checkingAccountId: due.checking_account_id,
        amountCents: due.bonus_cents,
        counterpartyName: dependencies.bankName,
      });
      await notifyCustomer(tx, {
        customerId: due.referrer_customer_id,
        kind: 'referral',
        name: 'Referral bonus',
        // The first name only: the referrer invited this friend; nothing else of theirs is shown (decision 032).
        text: `Your friend ${due.referred_first_name} joined: ${formatMoney(due.bonus_cents)} referral bonus paid into your checking account.`,
        link: '/invite',
        paymentId: due.bonus_transfer_id,
      });
      await recordAudit(tx, {
        actorType: 'system',
        action: 'referral.bonus_paid',
        subject: due.id,
        outcome: 'success',
        details: { referrerCustomerId: due.referrer_customer_id, transferId: due.bonus_transfer_id, amountCents: Number(due.bonus_cents) },
      });
      return true;
    });
    if (!marked) continue;
    paid += 1;
    dependencies.liveEvents.publish(due.referrer_customer_id, 'accounts');
    dependencies.liveEvents.publish(due.referrer_customer_id, 'notifications');
  }
  return paid;
}
