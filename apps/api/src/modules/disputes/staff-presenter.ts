import { disputeReasonLabels, type StaffDispute, type StaffDisputeDetail } from '@strongroom/contracts/disputes.ts';
import { calendarDayIn } from '../../platform/business-calendar.ts';
import { centsToJson } from '../../platform/money.ts';
import type { LetterFacts } from './letters.ts';
import { presentDispute, presentEvidence, sideOf, transactionDescription } from './presenter.ts';
import type { DisputeEvidenceRow, DisputeLetterRow } from './repository.ts';
import type { SameCounterpartyRow, StaffDisputeRow, StaffEventRow } from './staff-repository.ts';

/** The back office's view of a case (contract: staffDisputeSchema, staffDisputeDetailSchema). */

const openStatuses: ReadonlySet<string> = new Set(['submitted', 'investigating', 'provisionally_credited']);

/** The date the case is worked to: provisional credit by, until credit is given; then resolve by. */
export function nextDeadlineOf(row: Pick<StaffDisputeRow, 'provisional_credit_payment_id' | 'provisional_credit_by' | 'resolve_by'>): string {
  return row.provisional_credit_payment_id === null ? row.provisional_credit_by : row.resolve_by;
}

/** `today` is the bank's date: an open case whose next deadline is before it is overdue. */
export function presentStaffDispute(row: StaffDisputeRow, timeZone: string, today: string): StaffDispute {
  const nextDeadline = nextDeadlineOf(row);
  return {
    ...presentDispute(row, timeZone),
    customer: { id: row.customer_id, name: row.customer_name, email: row.customer_email },
    nextDeadline,
    overdue: openStatuses.has(row.status) && nextDeadline < today,
    pendingDecision:
      row.pending_decision && row.pending_decision_by && row.pending_decision_at
        ? { decision: row.pending_decision, by: row.pending_decision_by, reason: row.pending_decision_reason ?? '', at: row.pending_decision_at.toISOString() }
        : null,
  };
}

export function presentStaffDetail(
  row: StaffDisputeRow,
  timeZone: string,
  today: string,
  parts: {
    events: readonly StaffEventRow[];
    letters: readonly DisputeLetterRow[];
    evidence: readonly DisputeEvidenceRow[];
    sameCounterparty: readonly SameCounterpartyRow[];
  },
): StaffDisputeDetail {
  return {
    dispute: presentStaffDispute(row, timeZone, today),
    events: parts.events.map((event) => ({
      kind: event.kind,
      text: event.text,
      at: event.created_at.toISOString(),
      staffReason: event.staff_reason,
      staffName: event.staff_name,
      visible: event.visible,
    })),
    letters: parts.letters.map((letter) => ({ id: letter.id, kind: letter.kind, createdAt: letter.created_at.toISOString() })),
    evidence: parts.evidence.map(presentEvidence),
    sameCounterparty: parts.sameCounterparty.map((payment) => ({
      id: payment.id,
      kind: payment.kind,
      amountCents: centsToJson(payment.amount_cents),
      status: payment.status,
      createdAt: payment.created_at.toISOString(),
    })),
  };
}

/** The disputed transaction as the customer's history words it. */
export function disputedTransactionOf(row: StaffDisputeRow): string {
  return transactionDescription(
    {
      kind: row.payment_kind,
      message: row.payment_message,
      counterpartyName: row.payment_counterparty_name,
      counterpartyBankName: row.payment_counterparty_bank_name,
      details: row.payment_details,
    },
    sideOf(row),
  );
}

/** A letter's facts as the case stands, dated `date` (the bank's), with what the letter's kind adds. */
export function letterFactsOf(
  row: StaffDisputeRow,
  config: { bankName: string; bankTimeZone: string },
  date: string,
  extra: Pick<LetterFacts, 'provisionalCreditCents' | 'decision' | 'explanation' | 'reversalOn'> = {},
): LetterFacts {
  return {
    customerName: row.customer_name,
    bankName: config.bankName,
    date,
    transaction: {
      description: disputedTransactionOf(row),
      amountCents: row.payment_amount_cents.toString(),
      date: calendarDayIn(config.bankTimeZone, row.payment_created_at),
    },
    reason: disputeReasonLabels[row.reason],
    receivedOn: row.received_on,
    provisionalCreditBy: row.provisional_credit_by,
    resolveBy: row.resolve_by,
    ...Object.fromEntries(Object.entries(extra).filter(([, value]) => value !== undefined)),
  };
}
