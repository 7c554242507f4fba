import type { SessionResponse } from '@strongroom/contracts/auth.ts';
import type { MeResponse } from '@strongroom/contracts/session.ts';
import type { Queryable } from '../../db/database.ts';
import { openFreezeOf } from '../../platform/account-freeze.ts';
import { AppError } from '../../platform/errors.ts';
import { nextStepFor, presentCustomer } from './presenter.ts';
import { findCustomerById } from './repository.ts';

/** `{ user, next }`: what sign-in, `/me` and each onboarding step answer. */
export async function sessionAnswerFor(db: Queryable, customerId: string): Promise<SessionResponse> {
  const customer = await findCustomerById(db, customerId);
  // A session whose customer is gone is no session at all.
  if (!customer) throw new AppError('unauthenticated', 'Please sign in to continue');
  return { user: presentCustomer(customer), next: nextStepFor(customer) };
}

/** `GET /me`: the session answer, and the freeze on the customer for the banner: its customer message, never staff's reason. */
export async function meAnswerFor(db: Queryable, customerId: string): Promise<MeResponse> {
  const freeze = await openFreezeOf(db, customerId);
  return { ...(await sessionAnswerFor(db, customerId)), frozen: freeze ? { message: freeze.customerMessage, since: freeze.frozenAt.toISOString() } : null };
}
