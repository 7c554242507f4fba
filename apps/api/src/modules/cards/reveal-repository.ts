import type { Queryable } from '../../db/database.ts';

/** Who saw a card's number, when and from where (SQL only). */
export async function insertReveal(db: Queryable, reveal: { cardId: string; customerId: string; device: string; ip: string | null }): Promise<void> {
  await db.query('INSERT INTO card_reveals (card_id, customer_id, device, ip) VALUES ($1, $2, $3, $4)', [
    reveal.cardId,
    reveal.customerId,
    reveal.device,
    reveal.ip,
  ]);
}

export async function listReveals(db: Queryable, cardId: string, limit: number): Promise<{ created_at: Date; device: string; ip: string | null }[]> {
  return db.query('SELECT created_at, device, ip FROM card_reveals WHERE card_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [cardId, limit]);
}
