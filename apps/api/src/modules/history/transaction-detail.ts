import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { TransactionDetail } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { descriptionOf } from '../payments/presenter.ts';
import { ensureReceiptReference } from '../receipts/reference.ts';
import { findLine, paymentExists, type LineDetailRow, type LineSide } from './repository.ts';
import { presentLine } from './service.ts';

/** Who asked, for the audit log of a refused look-up. */
export interface RequestActor {
  ip: string;
  userAgent?: string;
  requestId: string;
}

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
  withdrawal: 'Wire',
  deposit: 'Deposit (ACH)',
  funding: 'Opening deposit',
};

/**
 * Who was on the other side. Money out shows the payee as the customer entered it (a card only as
 * its last four digits, the only form stored). Money in shows the customer's own account it came
 * from (here, or masked at another bank for a deposit), or otherwise only the sender's name:
 * another customer's account number is theirs.
 */
function counterpartyOf(row: LineDetailRow): TransactionDetail['counterparty'] {
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
 * `GET /transactions/{id}`: one line of this customer's history with everything its Details dialog
 * and receipt show. Someone else's line, an unknown one and a malformed id all answer 404 alike;
 * a look-up at a payment that exists but is not the caller's is written to the audit log.
 */
export async function transactionDetail(
  db: Queryable,
  config: Pick<Config, 'secrets'>,
  customerId: string,
  lineId: string,
  actor: RequestActor,
): Promise<TransactionDetail> {
  const parsed = parseLineId(lineId);
  const row = parsed ? await findLine(db, customerId, parsed.paymentId, parsed.side) : undefined;
  if (!parsed || !row) {
    if (parsed && (await paymentExists(db, parsed.paymentId))) {
      await recordAudit(db, {
        actorType: 'customer',
        actorId: customerId,
        action: 'history.line',
        subject: `${parsed.paymentId}:${parsed.side}`,
        outcome: 'denied',
        ip: actor.ip,
        userAgent: actor.userAgent,
        requestId: actor.requestId,
      });
    }
    throw new AppError('not_found', 'No such transaction');
  }
  const settledOtherwise = row.status === 'rejected' || row.status === 'returned';
  return {
    transaction: presentLine(row),
    account: { id: row.account_id, type: row.account_type, number: row.account_number },
    counterparty: counterpartyOf(row),
    reason: descriptionOf(row, row.side),
    medium: mediumOfKind[row.kind],
    statusReason: settledOtherwise ? row.status_reason : null,
    receiptReference: await ensureReceiptReference(db, config.secrets.sessionSecret, row.id, row.side),
  };
}
