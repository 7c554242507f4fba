import { createHash, randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';

/** What freezing a card and ordering its replacement came to. */
export type CardReplacement =
  | { outcome: 'not_in_use' }
  | {
      outcome: 'replaced';
      last4: string | null;
      /** False when the card was frozen already. */
      frozen: boolean;
      /** The new card waiting for approval; undefined when one was already waiting (that one is the replacement). */
      newCardId: string | undefined;
    };

/**
 * Freezes a card and orders a new one like it (type, network, name, account, limits), waiting for
 * approval as any new card does, in the caller's transaction (a dispute of an unauthorized charge,
 * docs/disputes.md). Only an active or frozen card can be replaced; one new card waits at a time:
 * `key` (the caller's, e.g. `dispute:<id>`) makes a rerun order none. Both steps are audited as the
 * card's own freeze and request are, with `cause` in their details.
 */
export async function freezeAndReplaceCard(
  tx: Queryable,
  actor: CustomerActor,
  cardId: string,
  replacement: { key: string; cause: Record<string, string>; now: Date | null },
): Promise<CardReplacement> {
  const [card] = await tx.query<{ id: string; status: string; last4: string | null }>('SELECT id, status, last4 FROM cards WHERE id = $1 FOR UPDATE', [cardId]);
  if (!card || (card.status !== 'active' && card.status !== 'frozen')) return { outcome: 'not_in_use' };
  const frozen = await tx.query<{ id: string }>(
    `UPDATE cards SET status = 'frozen', updated_at = coalesce($2::timestamptz, now()) WHERE id = $1 AND status = 'active' RETURNING id`,
    [card.id, replacement.now],
  );
  const [ordered] = await tx.query<{ id: string }>(
    `INSERT INTO cards (id, customer_id, type, network, name_on_card, status, linked_account_id, per_transaction_limit_cents, monthly_limit_cents,
       idempotency_key, request_hash)
     SELECT $2, customer_id, type, network, name_on_card, 'pending_approval', linked_account_id, per_transaction_limit_cents, monthly_limit_cents, $3, $4
       FROM cards WHERE id = $1
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [card.id, randomUUID(), replacement.key, createHash('sha256').update(replacement.key).digest()],
  );
  if (frozen.length === 1) {
    await recordAudit(
      tx,
      auditEntryOf(actor, { action: 'card.frozen', subject: card.id, outcome: 'success', details: { last4: card.last4, ...replacement.cause } }),
    );
  }
  await recordAudit(
    tx,
    auditEntryOf(actor, {
      action: 'card.replacement_ordered',
      subject: ordered?.id ?? card.id,
      outcome: 'success',
      details: { replaces: card.id, ...replacement.cause },
    }),
  );
  return { outcome: 'replaced', last4: card.last4, frozen: frozen.length === 1, newCardId: ordered?.id };
}
