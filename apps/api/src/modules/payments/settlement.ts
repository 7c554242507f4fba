import { formatMoney } from '@strongroom/contracts/money.ts';
import { systemClock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit, type AuditEntry } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { paymentNotificationLink } from './presenter.ts';

import { settlementTime } from './rail.ts';
import { publishPaymentChange, type PaymentDependencies } from './dependencies.ts';
import { decisionsNotInLedger, findPayment, transitionPayment, type PaymentRow } from './repository.ts';
import { resolveHeld } from '../money/service.ts';
import { findAccountById } from './party-repository.ts';

/**
 * What happens to a payment after it was made: staff release or reject a held one (the rail's
 * settlements and returns are in rail-outcomes.ts). Each decision is claimed (a conditional status change, so only one
 * decision wins) and applied to the ledger, with a transfer id derived from the payment's, with
 * its notifications and audit entry, in one transaction (decision 069). The sweep
 * `reconcileDecisions` applies a decision recorded before that, whose ledger step a crash interrupted.
 */
export function derivedTransferId(paymentId: string, purpose: 'post' | 'void' | 'return'): string {
  return derivedUuid(paymentId, purpose);
}

type SettlementDependencies = Pick<PaymentDependencies, 'db' | 'config' | 'liveEvents' | 'clock'>;

/**
 * Posts or voids a payment's pending transfer. Money a post brings into an account that owes the
 * bank pays that first, in the same transaction (accounts/owed.ts, issue 30 item 6).
 */
export async function applyToLedger(dependencies: SettlementDependencies, paymentId: string, action: 'post' | 'void'): Promise<void> {
  await retryOnWriteConflict(() => dependencies.db.transaction((tx) => applyInTransaction(tx, dependencies, paymentId, action)));
}

/** The same, inside the transaction that records the decision: the decision and its money commit together. */
async function applyInTransaction(tx: Queryable, dependencies: SettlementDependencies, paymentId: string, action: 'post' | 'void'): Promise<void> {
  const resolved = await resolveHeld(tx, { id: derivedTransferId(paymentId, action), pendingId: paymentId, action }, dependencies.clock);
  if (resolved.outcome === 'refused') throw new Error(`could not ${action} the pending transfer of payment ${paymentId}: ${resolved.code}`);
}

async function recordDecisionAudit(
  tx: Queryable,
  decision: { action: 'release' | 'reject'; reason: string; decidedBy: string },
  auditContext: Pick<AuditEntry, 'ip' | 'userAgent' | 'requestId'> & { details?: AuditEntry['details'] },
  paymentId: string,
): Promise<void> {
  await recordAudit(tx, {
    actorType: 'staff',
    actorId: decision.decidedBy,
    action: `payment.review_${decision.action}`,
    subject: paymentId,
    outcome: 'success',
    ip: auditContext.ip,
    userAgent: auditContext.userAgent,
    requestId: auditContext.requestId,
    details: { ...auditContext.details, reason: decision.reason },
  });
}

async function recipientOf(db: Queryable, row: PaymentRow): Promise<string | null> {
  if (row.kind !== 'internal' || !row.to_account_id) return null;
  return (await findAccountById(db, row.to_account_id))?.customer_id ?? null;
}

export type ReviewOutcome = 'released' | 'rejected' | 'not_found' | 'already_decided';

/** Staff (or the sandbox's ops CLI) decide a held payment; deciding twice answers already_decided. */
export async function decideHeldPayment(
  dependencies: SettlementDependencies,
  decision: { paymentId: string; action: 'release' | 'reject'; reason: string; decidedBy: string },
  /** The request's address, agent and id (a console decision), and details such as the first approver of four eyes. */
  auditContext: Pick<AuditEntry, 'ip' | 'userAgent' | 'requestId'> & { details?: AuditEntry['details'] } = {},
): Promise<ReviewOutcome> {
  const { db } = dependencies;
  const existing = await findPayment(db, decision.paymentId);
  if (!existing) return 'not_found';
  if (existing.status !== 'in_review') return 'already_decided';
  const recipient = await recipientOf(db, existing);
  const viaRail = existing.rail !== null;
  const decided = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      const amount = formatMoney(existing.amount_cents);
      const base = { customerId: existing.customer_id, paymentId: existing.id, link: paymentNotificationLink };
      if (decision.action === 'reject') {
        const row = await transitionPayment(tx, existing.id, ['in_review'], { status: 'rejected', statusReason: decision.reason });
        if (!row) return undefined;
        await notifyCustomer(tx, {
          ...base,
          kind: 'rejected',
          name: 'Payment rejected',
          text: `Your payment of ${amount} to ${row.counterparty_name} was rejected: ${decision.reason}. The money is back in your account.`,
        });
        await applyInTransaction(tx, dependencies, row.id, 'void');
        await recordDecisionAudit(tx, decision, auditContext, row.id);
        return row;
      }
      const row = viaRail
        ? await transitionPayment(tx, existing.id, ['in_review'], {
            status: 'pending',
            settleAt: settlementTime(existing.rail ?? 'ach', dependencies.config.railSpeed, existing.id, (dependencies.clock ?? systemClock).now()),
          })
        : await transitionPayment(tx, existing.id, ['in_review'], { status: 'completed' });
      if (!row) return undefined;
      await notifyCustomer(tx, {
        ...base,
        kind: 'released',
        name: 'Payment released',
        text: viaRail
          ? `Your payment of ${amount} to ${row.counterparty_name} was reviewed and is on its way.`
          : `Your payment of ${amount} to ${row.counterparty_name} was reviewed and has been sent.`,
      });
      if (!viaRail && recipient) {
        await notifyCustomer(tx, {
          customerId: recipient,
          paymentId: row.id,
          link: paymentNotificationLink,
          kind: 'money_in',
          name: 'Money received',
          text: `${row.details.senderName ?? 'Someone'} sent you ${amount}.`,
        });
      }
      // Released to a rail, it stays pending there until the rail settles it; otherwise it moves now.
      if (!viaRail) await applyInTransaction(tx, dependencies, row.id, 'post');
      await recordDecisionAudit(tx, decision, auditContext, row.id);
      return row;
    }),
  );
  if (!decided) return 'already_decided';
  publishPaymentChange(dependencies, decided, recipient);
  return decision.action === 'reject' ? 'rejected' : 'released';
}

/**
 * Applies to the ledger any decision recorded on a payment whose pending transfer is still
 * pending: the work a crash between the two steps above left undone.
 */
export async function reconcileDecisions(dependencies: SettlementDependencies, limit = 100): Promise<number> {
  const rows = await decisionsNotInLedger(dependencies.db, limit);
  for (const row of rows) await applyToLedger(dependencies, row.id, row.status === 'completed' ? 'post' : 'void');
  return rows.length;
}
