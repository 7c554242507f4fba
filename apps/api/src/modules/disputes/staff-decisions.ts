import { letterDay } from './letter-pdf.ts';
import { disputeFourEyesCents } from '@strongroom/contracts/disputes.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { sqlInstant } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { approversLinked } from '../../platform/four-eyes.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { reversalDate } from './deadlines.ts';
import { recordLetter } from './letters.ts';
import { giveProvisionalCredit, settleForCustomer } from './money.ts';
import type { DisputeRow } from './repository.ts';
import { disputedTransactionOf, letterFactsOf } from './staff-presenter.ts';
import { insertStaffEvent, markCredited, pendingExplanationOf, proposeDecision, recordDecision } from './staff-repository.ts';
import { act, decided, disputeLink, openStatuses, refuse, staffCase, today, type StaffDisputeDependencies } from './staff-service.ts';

/**
 * A dispute's decision (issue 34 item 3; docs/disputes.md): for the customer or denied, with the
 * explanation the customer's result letter gives and the reason the audit log keeps. Resolving for
 * the customer at or above disputeFourEyesCents needs a second, independent staff member.
 */

export interface DecisionBody {
  decision: 'customer' | 'denied';
  explanation: string;
  reason: string;
}

/**
 * `POST /staff/disputes/{id}/decision`. Resolving for the customer at or above
 * disputeFourEyesCents is proposed only (202): a second, independent staff member carries it out.
 */
export function decideDispute(dependencies: StaffDisputeDependencies, actor: StaffActor, id: string, body: DecisionBody) {
  return act(dependencies, actor, id, 'decision', body.reason, async (tx, locked, now) => {
    if (!openStatuses.has(locked.status) || locked.decision !== null) return refuse('dispute_state', decided, 'decided');
    if (locked.pending_decision !== null) {
      return refuse('dispute_state', 'A decision on this dispute is waiting for a second staff member: approve it, or wait.', 'pending_decision');
    }
    if (body.decision === 'customer' && locked.amount_cents >= BigInt(disputeFourEyesCents)) {
      await proposeDecision(tx, locked.id, { decision: body.decision, staffId: actor.staffId, reason: body.reason }, now);
      await insertStaffEvent(
        tx,
        { disputeId: locked.id, kind: 'decision_proposed', text: body.explanation, staffReason: body.reason, staffId: actor.staffId, visible: false },
        now,
      );
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'dispute.decision_proposed',
          subject: locked.id,
          outcome: 'success',
          details: { reason: body.reason, decision: body.decision },
        }),
      );
      return { done: true, awaitingApproval: true };
    }
    await carryOutDecision(dependencies, tx, locked, actor, body, null);
    return { done: true };
  });
}

/** `POST /staff/disputes/{id}/decision/approve`: the second person, neither the proposer nor linked to them (decision 050). */
export function approveDecision(dependencies: StaffDisputeDependencies, actor: StaffActor, id: string, reason: string) {
  return act(dependencies, actor, id, 'decision_approval', reason, async (tx, locked) => {
    if (locked.pending_decision === null || locked.pending_decision_by === null || locked.decision !== null) {
      return refuse('dispute_state', 'No decision on this dispute is waiting for approval.', 'nothing_pending');
    }
    if (locked.pending_decision_by === actor.staffId) {
      return refuse('four_eyes_required', 'You proposed this decision: a second staff member must approve it.', 'same_staff');
    }
    if (await approversLinked(tx, actor.staffId, [locked.pending_decision_by])) {
      return refuse(
        'four_eyes_required',
        "You and the staff member who proposed this decision are linked: one of you granted the other's back-office access (directly or through others), or the same person granted both. A staff member independent of both must approve.",
        'linked_staff',
      );
    }
    const explanation = (await pendingExplanationOf(tx, locked.id)) ?? '';
    const body = { decision: locked.pending_decision, explanation, reason: locked.pending_decision_reason ?? reason };
    await carryOutDecision(dependencies, tx, locked, actor, body, { proposedBy: locked.pending_decision_by, approvalReason: reason });
    return { done: true };
  });
}

/**
 * The decision carried out. For the customer: the credit is final (given now if it was not), and
 * suspense is cleared by a chargeback (a card purchase) or the bank's loss. Denied: if credit was
 * given, it is taken back on reversalDate(the bank's date), by the job, never sooner. The result
 * letter, the events, the notice and the audit entry go with it.
 */
async function carryOutDecision(
  dependencies: StaffDisputeDependencies,
  tx: Queryable,
  locked: DisputeRow,
  actor: StaffActor,
  body: DecisionBody,
  approval: { proposedBy: string; approvalReason: string } | null,
): Promise<void> {
  const now = sqlInstant(dependencies.clock);
  const day = await today(dependencies, tx);
  const event = (kind: 'resolved' | 'denied' | 'chargeback' | 'reversal_scheduled' | 'provisional_credit', text: string) =>
    insertStaffEvent(tx, { disputeId: locked.id, kind, text, staffReason: body.reason, staffId: actor.staffId, visible: true }, now);
  let creditCents = locked.provisional_credit_payment_id === null ? 0n : locked.amount_cents;
  let chargebackTransferId: string | null = null;
  let reversalOn: string | null = null;
  if (body.decision === 'customer') {
    if (creditCents === 0n) {
      const paymentId = await giveProvisionalCredit(tx, locked, dependencies.clock, { bankName: dependencies.config.bankName, final: true });
      await markCredited(tx, locked.id, paymentId, now);
      creditCents = locked.amount_cents;
      await event('provisional_credit', `We credited ${formatMoney(creditCents)} to your account.`);
    }
    chargebackTransferId = await settleForCustomer(tx, locked, creditCents, dependencies.clock);
    if (chargebackTransferId) await event('chargeback', 'We charged the purchase back to the card network.');
    await event('resolved', `We resolved this in your favour: ${body.explanation} The credit of ${formatMoney(creditCents)} is yours to keep.`);
  } else {
    await event(
      'denied',
      `We found no error: ${body.explanation} You may ask us for copies of the documents we relied on, by secure message; we send them free of charge.`,
    );
    if (creditCents > 0n) {
      reversalOn = reversalDate(day);
      await event(
        'reversal_scheduled',
        `We will take the provisional credit of ${formatMoney(creditCents)} back on ${letterDay(reversalOn)}. Until then, we honour payments that would overdraw your account because of it.`,
      );
    }
  }
  await recordDecision(tx, locked.id, { decision: body.decision, staffId: actor.staffId, reversalOn, chargebackTransferId }, now);
  const row = await staffCase(tx, locked.id);
  await recordLetter(tx, {
    disputeId: locked.id,
    customerId: locked.customer_id,
    kind: 'result',
    facts: letterFactsOf(row, dependencies.config, day, {
      decision: body.decision,
      explanation: body.explanation,
      ...(creditCents > 0n ? { provisionalCreditCents: creditCents.toString() } : {}),
      ...(reversalOn ? { reversalOn } : {}),
    }),
  });
  const transaction = disputedTransactionOf(row);
  await notifyCustomer(tx, {
    customerId: locked.customer_id,
    kind: 'dispute',
    name: body.decision === 'customer' ? 'Dispute resolved' : 'Dispute decided',
    text:
      body.decision === 'customer'
        ? `We resolved your dispute of ${transaction} in your favour: the credit of ${formatMoney(creditCents)} is yours to keep. Your letter is in the dispute.`
        : `We found no error in ${transaction}.${reversalOn ? ` We will take the provisional credit of ${formatMoney(creditCents)} back on ${letterDay(reversalOn)}.` : ''} Your letter in the dispute explains why.`,
    link: disputeLink(locked.id),
  });
  await recordAudit(
    tx,
    auditEntryOf(actor, {
      action: approval ? 'dispute.decision_approved' : body.decision === 'customer' ? 'dispute.resolved' : 'dispute.denied',
      subject: locked.id,
      outcome: 'success',
      details: {
        reason: approval?.approvalReason ?? body.reason,
        decision: body.decision,
        creditCents: creditCents.toString(),
        chargebackTransferId,
        reversalOn,
        proposedBy: approval?.proposedBy ?? null,
      },
    }),
  );
}
