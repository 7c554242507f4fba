import type { Dispute, DisputeDetail } from '@strongroom/contracts/disputes.ts';
import { lineDescription, type LineSide } from '@strongroom/contracts/history-line.ts';
import { calendarDayIn } from '../../platform/business-calendar.ts';
import { centsToJson } from '../../platform/money.ts';
import type { DisputeEventRow, DisputeEvidenceRow, DisputeLetterRow, PresentedDisputeRow } from './repository.ts';

/**
 * The disputed transaction as the customer's history words it: a debit card's purchase by its
 * merchant, any other payment by its message or who it was with (contracts' history-line.ts).
 */
export function transactionDescription(
  payment: {
    kind: PresentedDisputeRow['payment_kind'];
    message: string;
    counterpartyName: string;
    counterpartyBankName: string | null;
    details: Record<string, string>;
  },
  side: LineSide,
): string {
  if (payment.kind === 'card' && payment.details.cardPurchase === 'true') return payment.details.merchantName ?? payment.counterpartyName;
  return lineDescription(
    {
      kind: payment.kind,
      message: payment.message,
      counterpartyName: payment.counterpartyName,
      counterpartyBankName: payment.counterpartyBankName,
      senderName: payment.details.senderName ?? null,
      paysCreditCard: payment.kind === 'card' && payment.details.cardLedgerAccountId !== undefined,
      accountEnding: payment.details.accountEnding ?? null,
    },
    side,
  );
}

/** A short deposit is the only money in a customer disputes; everything else is money out. */
export function sideOf(row: PresentedDisputeRow): LineSide {
  return row.payment_kind === 'deposit' ? 'in' : 'out';
}

export function presentDispute(row: PresentedDisputeRow, timeZone: string): Dispute {
  const side = sideOf(row);
  const paymentCents = centsToJson(row.payment_amount_cents);
  return {
    id: row.id,
    status: row.status,
    transferId: row.payment_id,
    reason: row.reason,
    description: row.description,
    amountCents: centsToJson(row.amount_cents),
    transaction: {
      kind: row.payment_kind,
      description: transactionDescription(
        {
          kind: row.payment_kind,
          message: row.payment_message,
          counterpartyName: row.payment_counterparty_name,
          counterpartyBankName: row.payment_counterparty_bank_name,
          details: row.payment_details,
        },
        side,
      ),
      // Signed as history shows it: money out is negative.
      amountCents: side === 'out' ? -paymentCents : paymentCents,
      date: calendarDayIn(timeZone, row.payment_created_at),
    },
    receivedOn: row.received_on,
    provisionalCreditBy: row.provisional_credit_by,
    resolveBy: row.resolve_by,
    provisionalCreditCents: centsToJson(row.provisional_credit_cents ?? 0n),
    reversalOn: row.reversal_on,
    cardReplaced: row.card_replaced,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function presentDetail(
  row: PresentedDisputeRow,
  timeZone: string,
  parts: { events: readonly DisputeEventRow[]; letters: readonly DisputeLetterRow[]; evidence: readonly DisputeEvidenceRow[] },
): DisputeDetail {
  return {
    dispute: presentDispute(row, timeZone),
    events: parts.events.map((event) => ({ kind: event.kind, text: event.text, at: event.created_at.toISOString() })),
    letters: parts.letters.map((letter) => ({ id: letter.id, kind: letter.kind, createdAt: letter.created_at.toISOString() })),
    evidence: parts.evidence.map(presentEvidence),
  };
}

export function presentEvidence(row: DisputeEvidenceRow): DisputeDetail['evidence'][number] {
  return { id: row.id, fileName: row.file_name, contentType: row.content_type, byteSize: row.byte_size, createdAt: row.created_at.toISOString() };
}
