import type { CardStatus } from '@strongroom/contracts/cards.ts';
import type { Queryable } from '../../db/database.ts';
import type { KeysetPosition } from '../../platform/keyset-cursor.ts';
import { cardColumns, type CardRow } from './card-repository.ts';

/** The back office's card queue (SQL only). */
export interface StaffCardRow extends CardRow {
  first_name: string;
  last_name: string;
  email: string;
  customer_since: Date;
  identity_status: string | null;
  frozen: boolean;
  open_cards: number;
  sort_text: string;
}

export const cardQueuePageSize = 25;

/** Waiting requests oldest first; every other status newest first. One more row than a page. */
export async function listStaffCards(db: Queryable, status: CardStatus, after: KeysetPosition | undefined): Promise<{ rows: StaffCardRow[]; total: number }> {
  const waiting = status === 'pending_approval';
  const comparison = waiting ? '>' : '<';
  const direction = waiting ? 'ASC' : 'DESC';
  const parameters: unknown[] = [status, cardQueuePageSize + 1];
  let keyset = '';
  if (after) {
    parameters.push(after.at, after.id);
    keyset = `AND (k.created_at, k.id) ${comparison} ($3::timestamptz, $4::uuid)`;
  }
  const rows = await db.query<StaffCardRow>(
    `SELECT ${cardColumns.replace(/(\w+)/g, (column) => (column === 'id' ? 'k.id' : `k.${column}`))},
            c.first_name, c.last_name, c.email, c.created_at AS customer_since,
            (SELECT r.status FROM identity_reviews r WHERE r.customer_id = k.customer_id ORDER BY r.submitted_at DESC LIMIT 1) AS identity_status,
            EXISTS (SELECT 1 FROM customer_freezes f WHERE f.customer_id = k.customer_id AND f.unfrozen_at IS NULL) AS frozen,
            (SELECT count(*)::integer FROM cards o WHERE o.customer_id = k.customer_id AND o.status IN ('active', 'frozen')) AS open_cards,
            k.created_at::text AS sort_text
       FROM cards k JOIN customers c ON c.id = k.customer_id
      WHERE k.status = $1 ${keyset}
      ORDER BY k.created_at ${direction}, k.id ${direction}
      LIMIT $2`,
    parameters,
  );
  const [count] = await db.query<{ total: number }>('SELECT count(*)::integer AS total FROM cards WHERE status = $1', [status]);
  return { rows, total: count?.total ?? 0 };
}

export async function findStaffCard(db: Queryable, id: string): Promise<StaffCardRow | undefined> {
  const [row] = await db.query<StaffCardRow>(
    `SELECT ${cardColumns.replace(/(\w+)/g, (column) => `k.${column}`)},
            c.first_name, c.last_name, c.email, c.created_at AS customer_since,
            (SELECT r.status FROM identity_reviews r WHERE r.customer_id = k.customer_id ORDER BY r.submitted_at DESC LIMIT 1) AS identity_status,
            EXISTS (SELECT 1 FROM customer_freezes f WHERE f.customer_id = k.customer_id AND f.unfrozen_at IS NULL) AS frozen,
            (SELECT count(*)::integer FROM cards o WHERE o.customer_id = k.customer_id AND o.status IN ('active', 'frozen')) AS open_cards,
            k.created_at::text AS sort_text
       FROM cards k JOIN customers c ON c.id = k.customer_id WHERE k.id = $1`,
    [id],
  );
  return row;
}
