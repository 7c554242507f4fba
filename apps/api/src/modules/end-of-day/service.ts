import type { Queryable } from '../../db/database.ts';
import { accrueAccountBefore } from './accrual.ts';
import { allProductTerms } from './repository.ts';

/** What other modules use of end of day (strongroom/module-boundaries: a module reaches another only through its service.ts). */
export { unitsPerCent } from './accrual.ts';

/**
 * Accrues one account's days that the end-of-day job has not reached yet, up to the day before
 * `beforeDay` (the bank's date): closing an account pays the interest of those days too.
 */
export async function accrueAccountUntil(tx: Queryable, timeZone: string, accountId: string, beforeDay: string): Promise<void> {
  await accrueAccountBefore(tx, timeZone, await allProductTerms(tx), accountId, beforeDay);
}
