import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import type { StepUpDependencies } from '../step-up/service.ts';
import { findCard, type CardRow } from './card-repository.ts';

export interface CardDependencies {
  db: Database;
  config: Pick<Config, 'mode' | 'bankName' | 'bankTimeZone' | 'cardKeys'>;
  stepUp: StepUpDependencies;
  liveEvents?: LiveEvents;
  clock?: Clock;
  /** Sandbox: queues the automatic approval of a new request (CARD_AUTO_APPROVE_SECONDS). */
  scheduleAutoApproval?: (cardId: string) => Promise<void>;
}

/** Where a notification about a card takes the customer. */
export const cardsLink = '/card';
/** The most lines a card's page lists (transactions, reveals). */
export const listLimit = 100;

export const cardNotFound = () => new AppError('not_found', 'No such card');

/** The customer's own card, or 404 exactly as for a card that does not exist (or a malformed id). */
export async function customerCard(db: Queryable, customerId: string, cardId: string, options: { lock?: boolean } = {}): Promise<CardRow> {
  const row = isUuid(cardId) ? await findCard(db, cardId, options) : undefined;
  if (!row || row.customer_id !== customerId) throw cardNotFound();
  return row;
}

/** The customer's open pages refresh their notifications and balances. */
export function publishCardChange(dependencies: CardDependencies, customerId: string): void {
  dependencies.liveEvents?.publish(customerId, 'notifications');
  dependencies.liveEvents?.publish(customerId, 'accounts');
}
