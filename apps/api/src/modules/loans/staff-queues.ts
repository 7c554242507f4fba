import type { LoanStatus, StaffLoan } from '@strongroom/contracts/loans.ts';
import type { Database } from '../../db/database.ts';
import { decodeCursor, encodeCursor } from '../../platform/keyset-cursor.ts';
import { findLoan, lapseOffers, listLoansByStatus } from './repository.ts';
import { presentStaffLoan } from './service.ts';

/** A page of the queue: each item reads the customer's accounts and income, so pages stay small. */
export const loanQueuePageSize = 25;

/** One page of the back office's loan queue for `status`, and the cursor of the next. */
export async function staffLoanQueue(
  db: Database,
  status: LoanStatus,
  cursor: string | undefined,
): Promise<{ items: StaffLoan[]; nextCursor: string | null; total: number }> {
  // Offers past their window show as lapsed whether or not the daily job has run yet.
  if (status === 'offered' || status === 'expired') await lapseOffers(db);
  const { rows, total } = await listLoansByStatus(db, status, decodeCursor(cursor), loanQueuePageSize);
  const page = rows.slice(0, loanQueuePageSize);
  const items = [];
  for (const row of page) items.push(await presentStaffLoan(db, row));
  const last = page.at(-1);
  return { items, nextCursor: rows.length > loanQueuePageSize && last ? encodeCursor({ at: last.created_text, id: last.id }) : null, total };
}

/** A loan as the back office shows it, or undefined when there is none with that id. */
export async function staffLoan(db: Database, loanId: string): Promise<StaffLoan | undefined> {
  const row = await findLoan(db, loanId);
  return row ? presentStaffLoan(db, row) : undefined;
}
