import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../db/clock.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { moveMoney } from '../payments/service.ts';
import { dueBonuses, markReferralPaid } from './repository.ts';

/** Bonuses paid in one settlement call; a customer who referred more is paid on the next approval. */
const bonusesPerSettlement = 100;

export interface ReferralDependencies {
  db: Database;
  liveEvents: LiveEvents;
  bankName: string;
  /** Dates the ledger's transfers in tests; production uses the database's now() (db/clock.ts). */
  clock?: Clock;
}

/**
 * Pays every bonus that has become due for a customer whose identity was just approved, on either
 * side: as the referred friend (their referrer is paid) or as a referrer who had no checking
 * account yet when a friend was approved. Safe to call again: the transfer id is derived from the
 * referred customer, and only the caller that marks the referral paid moves the money and writes
 * the line and notice, in the same transaction (payments' moveMoney, decision 065).
 * A bonus held for staff (held-bonuses.ts) is not due until staff pay it.
 */
export async function settleReferralBonuses(dependencies: ReferralDependencies, customerId: string): Promise<number> {
  const { db } = dependencies;
  let paid = 0;
  for (const due of await dueBonuses(db, customerId, bonusesPerSettlement)) {
    // The referral is settled, its bonus moved and its history line, notice and audit entry written in one transaction (decision 065).
    const marked = await retryOnWriteConflict(() =>
      db.transaction(async (tx) => {
        if (!(await markReferralPaid(tx, due.id))) return false;
        const moved = await moveMoney(
          tx,
          {
            id: due.bonus_transfer_id,
            kind: 'referral_bonus',
            customerId: due.referrer_customer_id,
            fromAccountId: null,
            toAccountId: due.checking_account_id,
            amountCents: due.bonus_cents,
            counterpartyName: dependencies.bankName,
            message: 'Referral bonus',
            notifications: [
              {
                customerId: due.referrer_customer_id,
                kind: 'referral',
                name: 'Referral bonus',
                // The first name only: the referrer invited this friend; nothing else of theirs is shown (decision 032).
                text: `Your friend ${due.referred_first_name} joined: ${formatMoney(due.bonus_cents)} referral bonus paid into your checking account.`,
                link: '/invite',
                paymentId: due.bonus_transfer_id,
              },
            ],
            audit: {
              actorType: 'system',
              action: 'referral.bonus_paid',
              subject: due.id,
              outcome: 'success',
              details: { referrerCustomerId: due.referrer_customer_id, transferId: due.bonus_transfer_id, amountCents: Number(due.bonus_cents) },
            },
          },
          dependencies.clock,
        );
        // The bank's marketing expense has no limit: a refusal is a defect, and nothing of this referral commits.
        if (moved.outcome === 'refused') throw new Error(`the ledger refused the referral bonus ${due.id}: ${moved.code}`);
        return true;
      }),
    );
    if (!marked) continue;
    paid += 1;
    dependencies.liveEvents.publish(due.referrer_customer_id, 'accounts');
    dependencies.liveEvents.publish(due.referrer_customer_id, 'notifications');
  }
  return paid;
}
