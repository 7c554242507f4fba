import { recordAudit } from '../../platform/audit.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { clearAuthorization, reverseAuthorization, type HoldResolved } from './authorization-holds.ts';
import { authorizeStoredCard } from './authorizations.ts';
import type { CardDependencies } from './card-dependencies.ts';
import type { AuthorizationAnswer } from './presenter.ts';
import type { Refused } from './refusals.ts';

/**
 * The console's card network simulator (sandbox only; `payments.settle`): the same authorisations,
 * clearings and reversals as the sandbox's card network, each audited with the staff member's reason.
 */
export async function simulateAuthorization(
  dependencies: CardDependencies,
  actor: StaffActor,
  request: { reason: string; cardId: string; amountCents: number; merchantName: string; mcc: string; cvv?: string; expiry?: string },
): Promise<AuthorizationAnswer> {
  const { reason, ...input } = request;
  const authorization = await authorizeStoredCard(dependencies, input, `staff:${actor.staffId}`);
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'card_simulator.authorized',
      subject: input.cardId,
      outcome: 'success',
      details: {
        reason,
        authorizationId: authorization.id,
        status: authorization.status,
        declineReason: authorization.declineReason ?? null,
        amountCents: input.amountCents,
        wrongCvv: input.cvv !== undefined,
        wrongExpiry: input.expiry !== undefined,
      },
    }),
  );
  return authorization;
}

export async function simulateClearing(
  dependencies: CardDependencies,
  actor: StaffActor,
  authorizationId: string,
  request: { reason: string; amountCents?: number },
): Promise<HoldResolved | Refused> {
  const cleared = await clearAuthorization(dependencies, authorizationId, request.amountCents);
  if (cleared.outcome === 'refused') return cleared;
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'card_simulator.cleared',
      subject: authorizationId,
      outcome: 'success',
      details: { reason: request.reason, clearedCents: cleared.answer.transaction.clearedCents },
    }),
  );
  return cleared;
}

export async function simulateReversal(
  dependencies: CardDependencies,
  actor: StaffActor,
  authorizationId: string,
  request: { reason: string },
): Promise<HoldResolved | Refused> {
  const reversed = await reverseAuthorization(dependencies, authorizationId);
  if (reversed.outcome === 'refused') return reversed;
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, { action: 'card_simulator.reversed', subject: authorizationId, outcome: 'success', details: { reason: request.reason } }),
  );
  return reversed;
}
