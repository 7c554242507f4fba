import type { CardTransaction } from '@strongroom/contracts/cards.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { transferFlags } from '../../ledger/types.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { clearCardPurchaseLine, releaseCardPurchaseLine } from '../payments/service.ts';
import { expiredHolds, findAuthorization, orphanAuthorizations, resolveAuthorization, type AuthorizationRow } from './authorization-repository.ts';
import { cardsLink, type CardDependencies } from './card-dependencies.ts';
import { answerOf, presentTransaction, type AuthorizationAnswer } from './presenter.ts';
import { refused, type Refused } from './refusals.ts';

/** A hold cleared or reversed: the network's answer and the card's line as it now reads. */
export interface HoldResolved {
  outcome: 'resolved';
  answer: { authorization: AuthorizationAnswer; transaction: CardTransaction };
}

/** After this long an authorisation with no ledger hold will never get one. */
const orphanAfterMinutes = 5;

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
 * authorised, a second clearing, or one after a reversal or expiry is refused (409).
 */
export async function clearAuthorization(
  dependencies: CardDependencies,
  authorizationId: string,
  amountCents: number | undefined,
): Promise<HoldResolved | Refused> {
  const { db } = dependencies;
  await releaseExpiredHolds(dependencies);
  const row = await authorizationFor(db, authorizationId);
  const notPending = refusalUnlessPending(row, 'clear');
  if (notPending) return notPending;
  const amount = amountCents === undefined ? BigInt(row.amount_cents) : BigInt(amountCents);
  if (amount > BigInt(row.amount_cents)) {
    return refused('conflict', `Clearing can take at most the ${formatMoney(BigInt(row.amount_cents))} that was authorised, not ${formatMoney(amount)}.`);
  }
  const transferId = derivedUuid('card-clear', row.id);
  const [outcome] = await createTransfers(
    db,
    [{ id: transferId, pendingId: row.id, amountCents: amount, flags: transferFlags.postPendingTransfer }],
    dependencies.clock,
  );
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists')) return refusalOfResolution(dependencies, row, outcome?.result, 'clear');
  await db.transaction(async (tx) => {
    await resolveAuthorization(tx, row.id, { status: 'cleared', clearedCents: amount, transferId });
    await clearCardPurchaseLine(tx, row.id, amount);
  });
  dependencies.liveEvents?.publish(row.customer_id, 'accounts');
  return resolved(db, row.id);
}

/** A reversal voids the hold: the money never left. After clearing it is refused (409). */
export async function reverseAuthorization(dependencies: CardDependencies, authorizationId: string): Promise<HoldResolved | Refused> {
  const { db } = dependencies;
  await releaseExpiredHolds(dependencies);
  const row = await authorizationFor(db, authorizationId);
  const notPending = refusalUnlessPending(row, 'reverse');
  if (notPending) return notPending;
  const transferId = derivedUuid('card-reverse', row.id);
  const [outcome] = await createTransfers(db, [{ id: transferId, pendingId: row.id, flags: transferFlags.voidPendingTransfer }], dependencies.clock);
  if (!outcome || (outcome.result !== 'ok' && outcome.result !== 'exists')) return refusalOfResolution(dependencies, row, outcome?.result, 'reverse');
  await db.transaction(async (tx) => {
    await resolveAuthorization(tx, row.id, { status: 'reversed', transferId });
    await releaseCardPurchaseLine(tx, row.id);
    await notifyHoldReleased(tx, row);
  });
  publishRelease(dependencies, row.customer_id);
  return resolved(db, row.id);
}

/** The ledger said no to a post or void: the hold was resolved meanwhile (or expired). */
async function refusalOfResolution(
  dependencies: CardDependencies,
  row: AuthorizationRow,
  result: string | undefined,
  action: 'clear' | 'reverse',
): Promise<Refused> {
  const what = action === 'clear' ? 'cleared' : 'reversed';
  if (result === 'pending_transfer_expired') {
    await releaseExpiredHolds(dependencies);
    return refused('conflict', `This authorisation cannot be ${what}: its hold expired and was released.`);
  }
  if (result?.startsWith('pending_transfer_already_')) {
    const notPending = refusalUnlessPending(await authorizationFor(dependencies.db, row.id), action);
    if (notPending) return notPending;
  }
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
  // An authorisation whose hold never reached the ledger (a crash between the two) held nothing: it ends expired, silently.
  for (const orphan of await orphanAuthorizations(db, orphanAfterMinutes, limit)) await resolveAuthorization(db, orphan.id, { status: 'expired' });
  return rows.length;
}
