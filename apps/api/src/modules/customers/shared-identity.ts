import type { SharedSignal } from '@strongroom/contracts/staff-identity.ts';
import type { Queryable } from '../../db/database.ts';

/**
 * Other customers who share with this one what one person signing up twice would carry over: the
 * verified phone number, the ID number of an identity review (compared by its keyed hash, never
 * decrypted), or a browser they signed in from (the device cookie's hash in `known_devices`).
 * The referral bonus is held on any of them, and staff see them in the identity review (issue 30
 * item 8). A number nobody verified proves nothing and is left out.
 */
export interface SharingCustomer {
  customerId: string;
  firstName: string;
  lastName: string;
  shares: SharedSignal[];
}

/**
 * The most listed: a browser in a shared office or a family's phone may be shared by several
 * people; staff need to see that it is shared and by whom first, not a page of everyone.
 */
export const sharingCustomersLimit = 20;

const signalOrder: readonly SharedSignal[] = ['id_number', 'phone', 'device'];

export async function customersSharingIdentity(db: Queryable, customerId: string): Promise<SharingCustomer[]> {
  const rows = await db.query<{ customer_id: string; first_name: string; last_name: string; shares: SharedSignal[] }>(
    `SELECT other.id AS customer_id, other.first_name, other.last_name, array_agg(DISTINCT shared.signal ORDER BY shared.signal) AS shares
       FROM (
         SELECT them.id AS customer_id, 'phone' AS signal
           FROM customers me JOIN customers them ON them.phone_e164 = me.phone_e164 AND them.phone_verified_at IS NOT NULL
          WHERE me.id = $1 AND me.phone_verified_at IS NOT NULL
         UNION ALL
         SELECT theirs.customer_id, 'id_number'
           FROM identity_reviews mine JOIN identity_reviews theirs ON theirs.id_number_hash = mine.id_number_hash
          WHERE mine.customer_id = $1 AND mine.id_number_hash IS NOT NULL
         UNION ALL
         SELECT theirs.customer_id, 'device'
           FROM known_devices mine JOIN known_devices theirs ON theirs.device_hash = mine.device_hash
          WHERE mine.customer_id = $1
       ) shared
       JOIN customers other ON other.id = shared.customer_id
      WHERE other.id <> $1
      GROUP BY other.id, other.first_name, other.last_name
      ORDER BY count(DISTINCT shared.signal) DESC, other.last_name, other.first_name, other.id
      LIMIT $2`,
    [customerId, sharingCustomersLimit],
  );
  return rows.map((row) => ({
    customerId: row.customer_id,
    firstName: row.first_name,
    lastName: row.last_name,
    shares: signalOrder.filter((signal) => row.shares.includes(signal)),
  }));
}
