import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import type { Queryable } from '../../db/database.ts';
import type { StoredPaymentStatus } from '../../platform/payment-status.ts';

export interface VerificationRow {
  reference: string;
  side: 'in' | 'out';
  kind: PaymentKind;
  status: StoredPaymentStatus;
  amount_cents: bigint;
  created_at: Date;
  counterparty_account_number: string | null;
  from_number: string | null;
  to_number: string | null;
  /** Whether both accounts at this bank belong to one customer (an own transfer or a transfer to oneself). */
  same_customer: boolean;
}

export async function findVerification(db: Queryable, reference: string): Promise<VerificationRow | undefined> {
  const [row] = await db.query<VerificationRow>(
    `SELECT r.reference, r.side, p.kind, p.status, p.amount_cents, p.created_at, p.counterparty_account_number,
            source.number AS from_number, target.number AS to_number,
            coalesce(source.customer_id = target.customer_id, false) AS same_customer
     FROM receipt_references r
     JOIN payments p ON p.id = r.payment_id
     LEFT JOIN customer_accounts source ON source.id = p.from_account_id
     LEFT JOIN customer_accounts target ON target.id = p.to_account_id
     WHERE r.reference = $1`,
    [reference],
    { name: 'receipt_verification' },
  );
  return row;
}
