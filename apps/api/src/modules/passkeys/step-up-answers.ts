import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { completeStepUpChallenge, findOpenStepUpChallenge } from '../step-up/service.ts';
import type { PasskeyDependencies } from './dependencies.ts';
import { countPasskeys, findPasskeyByCredential, listPasskeyRows } from './repository.ts';
import { assertionOptions, claim, verifyAssertion } from './webauthn.ts';

/** The step-up's 'passkey' method (given to it in app.ts): a customer with a passkey is offered it first. */
export async function hasPasskey(db: Queryable, customerId: string): Promise<boolean> {
  return (await countPasskeys(db, customerId)) > 0;
}

/** `POST /step-up/{challengeId}/passkey/options`: the customer's own passkeys may answer this step-up. */
export async function stepUpOptions(dependencies: PasskeyDependencies, customerId: string, stepUpChallengeId: string) {
  const open = isUuid(stepUpChallengeId) ? await findOpenStepUpChallenge(dependencies.db, customerId, stepUpChallengeId) : undefined;
  if (!open) throw new AppError('not_found', 'This request for confirmation was not found. Start again.');
  const rows = await listPasskeyRows(dependencies.db, customerId);
  if (rows.length === 0) throw new AppError('conflict', 'You have no passkey yet. Use a code instead.');
  return assertionOptions(dependencies, 'step_up', customerId, open.id, rows);
}

/**
 * `POST /step-up/{challengeId}/passkey`: an assertion by one of the customer's passkeys over the
 * challenge made for this step-up completes it (A's completeStepUpChallenge: audit 'step_up.verify'
 * with method 'passkey'). Another customer's passkey, an unknown one or another challenge: 400.
 */
export async function answerStepUpWithPasskey(
  dependencies: PasskeyDependencies,
  actor: CustomerActor,
  stepUpChallengeId: string,
  response: AuthenticationResponseJSON,
): Promise<void> {
  const { db } = dependencies;
  const open = isUuid(stepUpChallengeId) ? await findOpenStepUpChallenge(db, actor.customerId, stepUpChallengeId) : undefined;
  if (!open) throw new AppError('not_found', 'This request for confirmation was not found. Start again.');
  const expectedChallenge = await claim(dependencies, response.response.clientDataJSON, 'step_up', actor.customerId, open.id);
  const row = await findPasskeyByCredential(db, response.id);
  const own = row && row.customer_id === actor.customerId ? row : undefined;
  const verified = expectedChallenge && own ? await verifyAssertion(dependencies, own, response, expectedChallenge) : false;
  if (!verified || !own) {
    const reason = !expectedChallenge ? 'challenge_unknown_or_used' : !own ? 'not_own_passkey' : 'verification_failed';
    await recordAudit(db, auditEntryOf(actor, { action: 'step_up.verify', outcome: 'failure', details: { challengeId: open.id, method: 'passkey', reason } }));
    throw new AppError('bad_request', 'This passkey was not accepted. Try again, or use a code instead.');
  }
  await completeStepUpChallenge(db, { customerId: actor.customerId, challengeId: open.id, method: 'passkey', requestId: actor.requestId });
}
