import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Database } from '../../db/database.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfersIn } from '../../ledger/create-transfers.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { owingAmong, repayOwedIn } from '../accounts/service.ts';
import { dueBonuses, insertBonusPayment, markReferralPaid } from './repository.ts';

/** Bonuses paid in one settlement call; a customer who referred more is paid on the next approval. */
const bonusesPerSettlement = 100;

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
 * A bonus held for staff (held-bonuses.ts) is not due until staff pay it.
 */
export async function settleReferralBonuses(dependencies: ReferralDependencies, customerId: string): Promise<number> {
  const { db } = dependencies;
  let paid = 0;
  for (const due of await dueBonuses(db, customerId, bonusesPerSettlement)) {
    await retryOnWriteConflict(() =>
      db.transaction(async (tx) => {
        const [outcome] = await createTransfersIn(tx, [
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
        // What checking owes the bank after a returned deposit is paid first, as with any money that arrives (accounts/owed.ts).
        if (outcome.result === 'ok') await repayOwedIn(tx, await owingAmong(tx, [due.checking_ledger_account_id]));
      }),
    );
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
