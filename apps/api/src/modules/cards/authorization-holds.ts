import type { CardTransaction } from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { resolveHeld, type ResolveRefusal } from '../money/service.ts';
import { clearCardPurchaseLine, releaseCardPurchaseLine } from '../payments/service.ts';
import { expiredHolds, findAuthorization, resolveAuthorization, type AuthorizationRow } from './authorization-repository.ts';
import { cardsLink, type CardDependencies } from './card-dependencies.ts';
import { answerOf, presentTransaction, type AuthorizationAnswer } from './presenter.ts';
import { refused, type Refused } from './refusals.ts';

/** A hold cleared or reversed: the network's answer and the card's line as it now reads. */
export interface HoldResolved {
  outcome: 'resolved';
  answer: { authorization: AuthorizationAnswer; transaction: CardTransaction };
}

async function authorizationFor(db: Queryable, id: string): Promise<AuthorizationRow> {
  const row = isUuid(id) ? await findAuthorization(db, id) : undefined;
  if (!row) throw new AppError('not_found', 'No such authorisation');
  return row;
}

function refusalUnlessPending(row: AuthorizationRow, action: 'clear' | 'reverse'): Refused | undefined {
  if (row.status === 'pending') return undefined;
  const what = action === 'clear' ? 'cleared' : 'reversed';
  const why: Record<Exclude<AuthorizationRow['status'], 'pending'>, string> = {
    cleared: 'it was already cleared',
    reversed: 'it was reversed',
    expired: 'its hold expired and was released',
    declined: 'it was declined',
  };
  return refused('conflict', `This authorisation cannot be ${what}: ${why[row.status]}.`);
}

async function resolved(db: Queryable, id: string): Promise<HoldResolved> {
  const row = await authorizationFor(db, id);
  return { outcome: 'resolved', answer: { authorization: answerOf(row), transaction: presentTransaction(row) } };
}

/**
 * Clearing posts the hold, for its amount or less (the rest is released); more than was
 * authorised, a second clearing, or one after a reversal or expiry is refused (409). The post and
 * the authorisation's new state commit together.
 */
export async function clearAuthorization(
  dependencies: CardDependencies,
  authorizationId: string,
  amountCents: number | undefined,
): Promise<HoldResolved | Refused> {
  await releaseExpiredHolds(dependencies);
  const row = await authorizationFor(dependencies.db, authorizationId);
  const amount = amountCents === undefined ? BigInt(row.amount_cents) : BigInt(amountCents);
  if (row.status === 'pending' && amount > BigInt(row.amount_cents)) {
    return refused('conflict', `Clearing can take at most the ${formatMoney(BigInt(row.amount_cents))} that was authorised, not ${formatMoney(amount)}.`);
  }
  return resolveHold(
    dependencies,
    row.id,
    'clear',
    async (tx, transferId) => {
      await resolveAuthorization(tx, row.id, { status: 'cleared', clearedCents: amount, transferId });
      await clearCardPurchaseLine(tx, row.id, amount);
    },
    amount,
  );
}

/** A reversal voids the hold: the money never left. After clearing it is refused (409). */
export async function reverseAuthorization(dependencies: CardDependencies, authorizationId: string): Promise<HoldResolved | Refused> {
  await releaseExpiredHolds(dependencies);
  const row = await authorizationFor(dependencies.db, authorizationId);
  const answer = await resolveHold(dependencies, row.id, 'reverse', async (tx, transferId) => {
    await resolveAuthorization(tx, row.id, { status: 'reversed', transferId });
    await releaseCardPurchaseLine(tx, row.id);
    await notifyHoldReleased(tx, row);
  });
  if (answer.outcome === 'resolved') dependencies.liveEvents?.publish(row.customer_id, 'notifications');
  return answer;
}

/**
 * Posts (clear) or voids (reverse) a pending authorisation's hold through the money module, and
 * records the outcome, in one transaction under the authorisation's row lock: of a clearing and a
 * reversal at once, one wins and the other is refused for the state the first left.
 */
async function resolveHold(
  dependencies: CardDependencies,
  id: string,
  action: 'clear' | 'reverse',
  record: (tx: Queryable, transferId: string) => Promise<void>,
  amountCents?: bigint,
): Promise<HoldResolved | Refused> {
  const transferId = derivedUuid(action === 'clear' ? 'card-clear' : 'card-reverse', id);
  const refusal = await retryOnWriteConflict(() =>
    dependencies.db.transaction(async (tx): Promise<Refused | undefined> => {
      const current = await findAuthorization(tx, id, { lock: true });
      if (!current) throw new AppError('not_found', 'No such authorisation');
      const notPending = refusalUnlessPending(current, action);
      if (notPending) return notPending;
      const resolved = await resolveHeld(
        tx,
        { id: transferId, pendingId: id, action: action === 'clear' ? 'post' : 'void', ...(amountCents === undefined ? {} : { amountCents }) },
        dependencies.clock,
      );
      if (resolved.outcome === 'refused') return refusalOfResolution(resolved.code, action);
      await record(tx, transferId);
      return undefined;
    }),
  );
  if (refusal) {
    // A hold the ledger's sweep voided meanwhile is recorded expired now, and the customer told.
    await releaseExpiredHolds(dependencies);
    return refusal;
  }
  dependencies.liveEvents?.publish((await authorizationFor(dependencies.db, id)).customer_id, 'accounts');
  return resolved(dependencies.db, id);
}

/** The ledger said no to a post or void: the hold ended otherwise meanwhile. */
function refusalOfResolution(code: ResolveRefusal, action: 'clear' | 'reverse'): Refused {
  const what = action === 'clear' ? 'cleared' : 'reversed';
  if (code === 'hold_expired') return refused('conflict', `This authorisation cannot be ${what}: its hold expired and was released.`);
  return refused('conflict', `This authorisation cannot be ${what} now.`);
}

async function notifyHoldReleased(db: Queryable, row: AuthorizationRow): Promise<void> {
  await notifyCustomer(db, {
    customerId: row.customer_id,
    kind: 'returned',
    name: 'Hold released',
    text: `The hold of ${formatMoney(BigInt(row.amount_cents))} at ${row.merchant_name} was released: the money is available again.`,
    link: cardsLink,
  });
}

function publishRelease(dependencies: CardDependencies, customerId: string): void {
  dependencies.liveEvents?.publish(customerId, 'accounts');
  dependencies.liveEvents?.publish(customerId, 'notifications');
}

/**
 * Holds the ledger's sweep voided after 7 days (its timeout) become 'expired' here, their history
 * line "Hold released", and the customer is told. Run by a recurring job and before a clear or reversal.
 */
export async function releaseExpiredHolds(dependencies: CardDependencies, limit = 500): Promise<number> {
  const { db } = dependencies;
  const rows = await expiredHolds(db, limit);
  for (const row of rows) {
    await db.transaction(async (tx) => {
      const current = await findAuthorization(tx, row.id, { lock: true });
      if (current?.status !== 'pending') return;
      await resolveAuthorization(tx, row.id, { status: 'expired' });
      await releaseCardPurchaseLine(tx, row.id);
      await notifyHoldReleased(tx, row);
    });
    publishRelease(dependencies, row.customer_id);
  }
  return rows.length;
}
