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
 */
export interface OpenFreeze {
  reason: string;
  frozenAt: Date;
}

export async function openFreezeOf(db: Queryable, customerId: string): Promise<OpenFreeze | undefined> {
  const [row] = await db.query<{ reason: string; frozen_at: Date }>(
    'SELECT reason, frozen_at FROM customer_freezes WHERE customer_id = $1 AND unfrozen_at IS NULL',
    [customerId],
    { name: 'customer_freezes_open' },
  );
  return row && { reason: row.reason, frozenAt: row.frozen_at };
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
