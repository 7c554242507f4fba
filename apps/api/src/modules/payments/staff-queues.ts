import type { HeldTransfer, StaffPayment } from '@strongroom/contracts/staff-payments.ts';
import type { Queryable } from '../../db/database.ts';
import { presentAtRail, presentHeld } from './staff-presenter.ts';
import { countAtRails, countHeld, findHeld, listAtRails, listHeld, type HeldFilter } from './staff-repository.ts';

/** The back office's payment queues show this many a page. */
export const staffPageSize = 50;

interface Page<T> {
  items: T[];
  nextCursor: string | null;
  total: number;
}

/** One page of the held transfers with `filter`, each with its approvals against the four-eyes threshold. */
export async function heldTransfersPage(db: Queryable, filter: HeldFilter, cursor: string | undefined, fourEyesCents: bigint): Promise<Page<HeldTransfer>> {
  const rows = await listHeld(db, filter, cursor, staffPageSize + 1);
  const page = rows.slice(0, staffPageSize);
  return {
    items: await presentHeld(db, page, fourEyesCents),
    nextCursor: rows.length > staffPageSize ? (page.at(-1)?.id ?? null) : null,
    total: await countHeld(db, filter),
  };
}

/** One held (or once held) transfer as the back office shows it, or undefined when there is none. */
export async function heldTransfer(db: Queryable, id: string, fourEyesCents: bigint): Promise<HeldTransfer | undefined> {
  const row = await findHeld(db, id);
  const [transfer] = row ? await presentHeld(db, [row], fourEyesCents) : [];
  return transfer;
}

/** One page of the payments waiting at the rails named in `filter` (and sent on its date, if any). */
export async function paymentsAtRailsPage(
  db: Queryable,
  filter: { rails: readonly string[]; date: string | null },
  cursor: string | undefined,
): Promise<Page<StaffPayment>> {
  const rows = await listAtRails(db, filter, cursor, staffPageSize + 1);
  const page = rows.slice(0, staffPageSize);
  return {
    items: page.map(presentAtRail),
    nextCursor: rows.length > staffPageSize ? (page.at(-1)?.id ?? null) : null,
    total: await countAtRails(db, filter),
  };
}
