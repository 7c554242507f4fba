import { lineDescription, type LineSide } from '@strongroom/contracts/history-line.ts';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { TransactionDetail } from '@strongroom/contracts/transactions.ts';
import type { Queryable } from '../../db/database.ts';
import { deriveReceiptReference } from '../../platform/receipt-reference.ts';
import { lineFactsOf, presentLine } from './present-line.ts';
import { findReferenceOfLine, insertReference, type LineDetailRow } from './repository.ts';

const lineIdPattern = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(in|out)$/;

/** `{paymentId}:{in|out}`, the id of a history line; undefined for anything else. */
export function parseLineId(lineId: string): { paymentId: string; side: LineSide } | undefined {
  const match = lineIdPattern.exec(lineId.toLowerCase());
  if (!match?.[1] || (match[2] !== 'in' && match[2] !== 'out')) return undefined;
  return { paymentId: match[1], side: match[2] };
}

/** How the money moved, in the words the Details dialog and the receipt print. */
export const mediumOfKind: Record<PaymentKind, string> = {
  own: 'Own account',
  internal: 'Within the bank',
  external: 'ACH',
  card: 'Card',
  bill: 'Bill payment (ACH)',
  withdrawal: 'Wire',
  deposit: 'Deposit (ACH)',
  funding: 'Opening deposit',
  loan_disbursement: 'Loan',
  loan_repayment: 'Loan',
  referral_bonus: 'Referral bonus',
  interest: 'Interest',
  fee: 'Fee',
  fee_refund: 'Fee refund',
  dispute_credit: 'Dispute credit',
  dispute_reversal: 'Dispute credit reversed',
};

/**
 * Who was on the other side. Money out shows the payee as the customer entered it (a card only as
 * its last four digits, the only form stored). Money in shows the customer's own account it came
 * from (here, or masked at another bank for a deposit), or otherwise only the sender's name:
 * another customer's account number is theirs.
 */
function counterpartyOf(row: LineDetailRow): TransactionDetail['counterparty'] {
  // A bill payment names the biller and the customer's own account there, masked; the biller's bank account is the bank's business.
  if (row.kind === 'bill') {
    return { name: row.counterparty_name, accountNumber: `••••${row.details.accountEnding ?? ''}`, routeNumber: null, bankName: null };
  }
  if (row.side === 'out') {
    return {
      name: row.counterparty_name,
      accountNumber: row.counterparty_account_number,
      routeNumber: row.counterparty_route_number,
      bankName: row.counterparty_bank_name,
    };
  }
  if (row.own_source_number !== null) return { name: row.own_source_name ?? '', accountNumber: row.own_source_number, routeNumber: null, bankName: null };
  // A deposit comes from the customer's own account at another bank, stored masked (•••• 1234).
  if (row.kind === 'deposit')
    return {
      name: row.counterparty_name,
      accountNumber: row.counterparty_account_number,
      routeNumber: row.counterparty_route_number,
      bankName: row.counterparty_bank_name,
    };
  return { name: row.details.senderName ?? row.counterparty_name, accountNumber: null, routeNumber: null, bankName: null };
}

/**
 * The line's receipt reference, stored the first time it is asked for so that the public
 * verification can find the line by it. A reference stored earlier wins, so a receipt stays valid
 * after the key changes.
 */
async function ensureReceiptReference(db: Queryable, key: Buffer, paymentId: string, side: LineSide): Promise<string> {
  const stored = await findReferenceOfLine(db, paymentId, side);
  if (stored) return stored;
  await insertReference(db, { reference: deriveReceiptReference(key, paymentId, side), paymentId, side });
  const kept = await findReferenceOfLine(db, paymentId, side);
  if (!kept) throw new Error('a receipt reference was neither stored nor found');
  return kept;
}

/** Everything the Details dialog and the receipt show of one line the customer may see. */
export async function presentDetail(db: Queryable, key: Buffer, row: LineDetailRow): Promise<TransactionDetail> {
  const settledOtherwise = row.status === 'rejected' || row.status === 'returned';
  return {
    transaction: presentLine(row),
    account: { id: row.account_id, type: row.account_type, number: row.account_number },
    counterparty: counterpartyOf(row),
    reason: lineDescription(lineFactsOf(row), row.side),
    medium: mediumOfKind[row.kind],
    statusReason: settledOtherwise ? row.status_reason : null,
    receiptReference: await ensureReceiptReference(db, key, row.id, row.side),
  };
}
