import type { CardRevealResponse } from '@strongroom/contracts/cards.ts';
import { recordAudit } from '../../platform/audit.ts';
import { requestHash } from '../../platform/idempotency.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { consumeStepUp, requireStepUp } from '../step-up/service.ts';
import { customerCard, listLimit, type CardDependencies } from './card-dependencies.ts';
import { cardVerificationValue, decryptCardNumber, formatExpiry } from './card-numbers.ts';
import type { CardRow } from './card-repository.ts';
import { expiryOf } from './presenter.ts';
import { deviceOf } from './device.ts';
import { refused, type Refused } from './refusals.ts';
import { insertReveal, listReveals } from './reveal-repository.ts';

const revealableStatuses: readonly CardRow['status'][] = ['active', 'frozen'];

/**
 * `POST /cards/{id}/reveal` (D9, D10): a step-up every time, bound to this card (a challenge for
 * another card is refused and a new one sent) and used once. Answers the number, the CVV (derived,
 * never stored) and the expiry; records the reveal for the customer's list and the audit log
 * (never the number).
 */
export async function revealCard(
  dependencies: CardDependencies,
  actor: CustomerActor,
  cardId: string,
  stepUpChallengeId: string | undefined,
): Promise<CardRevealResponse | Refused> {
  const { db, config } = dependencies;
  const card = await customerCard(db, actor.customerId, cardId);
  if (!revealableStatuses.includes(card.status) || !card.pan_encrypted) {
    return refused('card_not_active', 'The number of this card cannot be shown: it is not active.');
  }
  const stepUpKey = `card-reveal:${card.id}`;
  const hash = requestHash('card-reveal', { cardId: card.id });
  const challenge = {
    customerId: actor.customerId,
    idempotencyKey: stepUpKey,
    requestHash: hash,
    amountCents: 0n,
    purpose: `showing the number of your card ending ${card.last4}`,
    requestId: actor.requestId,
  };
  if (!stepUpChallengeId) return requireStepUp(dependencies.stepUp, challenge);
  const device = deviceOf(actor.userAgent);
  const consumed = await db.transaction(async (tx) => {
    if (!(await consumeStepUp(tx, actor.customerId, stepUpChallengeId, stepUpKey, hash))) return false;
    await insertReveal(tx, { cardId: card.id, customerId: actor.customerId, device, ip: actor.ip ?? null });
    await recordAudit(tx, auditEntryOf(actor, { action: 'card.revealed', subject: card.id, outcome: 'success', details: { last4: card.last4, device } }));
    return true;
  });
  if (!consumed) return requireStepUp(dependencies.stepUp, challenge);
  const number = decryptCardNumber(config.cardKeys, Buffer.from(card.pan_encrypted));
  const expiry = expiryOf(card);
  if (!expiry) throw new Error(`card ${card.id} has a number but no expiry`);
  return { number, cvv: cardVerificationValue(config.cardKeys, number, expiry), expiry: formatExpiry(expiry) };
}

export async function revealsOf(dependencies: CardDependencies, customerId: string, cardId: string) {
  const card = await customerCard(dependencies.db, customerId, cardId);
  const rows = await listReveals(dependencies.db, card.id, listLimit);
  return { items: rows.map((row) => ({ at: row.created_at.toISOString(), device: row.device, ip: row.ip })) };
}
