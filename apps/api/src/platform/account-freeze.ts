import type { preHandlerAsyncHookHandler } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { customerIdOf } from './authenticate.ts';
import { AppError } from './errors.ts';

/**
 * A frozen customer (issue 12, "Customers") can sign in and read everything but moves no money.
 * Every route that moves money, present and future (cards, loans), refuses with 403
 * `account_frozen`: `{ preHandler: refuseWhenFrozen(db) }` on the route, or `assertNotFrozen`
 * inside a service. The freeze itself lives in `customer_freezes` (migration 0015), written by
 * the customer-care module.
 *
 * What the customer may read of a freeze: its customer message and when it began. The internal
 * reason staff gave is not even selected here (decision 053), so no customer route can show it.
 */
export interface OpenFreeze {
  customerMessage: string;
  frozenAt: Date;
}

export async function openFreezeOf(db: Queryable, customerId: string): Promise<OpenFreeze | undefined> {
  const [row] = await db.query<{ customer_message: string; frozen_at: Date }>(
    'SELECT customer_message, frozen_at FROM customer_freezes WHERE customer_id = $1 AND unfrozen_at IS NULL',
    [customerId],
    { name: 'customer_freezes_open_for_customer' },
  );
  return row && { customerMessage: row.customer_message, frozenAt: row.frozen_at };
}

export const accountFrozenMessage = 'Your account is frozen: you can still see everything, but no money can move. Please contact us.';

export async function assertNotFrozen(db: Queryable, customerId: string): Promise<void> {
  if (await openFreezeOf(db, customerId)) throw new AppError('account_frozen', accountFrozenMessage);
}

/** A money route's guard; it runs after `requireCustomer` (a scope's hooks run before a route's). */
export function refuseWhenFrozen(db: Queryable): preHandlerAsyncHookHandler {
  return async (request) => {
    await assertNotFrozen(db, customerIdOf(request));
  };
}
