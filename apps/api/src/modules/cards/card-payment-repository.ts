import type { Queryable } from '../../db/database.ts';

/** Credit card payments (SQL only): one row per payment, written in the payment's own transaction. */
export async function findCardPaymentByKey(
  db: Queryable,
  customerId: string,
  key: string,
): Promise<{ id: string; card_id: string; request_hash: Buffer | Uint8Array | null } | undefined> {
  const [row] = await db.query<{ id: string; card_id: string; request_hash: Buffer | Uint8Array | null }>(
    'SELECT id, card_id, request_hash FROM card_payments WHERE customer_id = $1 AND idempotency_key = $2',
    [customerId, key],
  );
  return row;
}

export async function insertCardPayment(
  db: Queryable,
  payment: {
    id: string;
    cardId: string;
    customerId: string;
    fromAccountId: string | null;
    amountCents: bigint;
    source: 'payment' | 'push';
    idempotencyKey: string | null;
    requestHash: Buffer | null;
  },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO card_payments (id, card_id, customer_id, from_account_id, amount_cents, source, idempotency_key, request_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
    [payment.id, payment.cardId, payment.customerId, payment.fromAccountId, payment.amountCents, payment.source, payment.idempotencyKey, payment.requestHash],
  );
  return rows.length === 1;
}
