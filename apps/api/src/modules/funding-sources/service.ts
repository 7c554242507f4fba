import { randomInt, randomUUID } from 'node:crypto';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import {
  fundingSourceLinksPerDay,
  fundingSourceMaxLive,
  fundingSourceMessages,
  fundingSourceVerifyAttempts,
  microDepositMaxCents,
  microDepositMinCents,
  type CreateFundingSourceRequest,
  type FundingSource,
} from '@strongroom/contracts/funding-sources.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { recordAudit } from '../../platform/audit.ts';
import { encrypt, keyedHash } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { assertSameRequest, requestHash } from '../../platform/idempotency.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { consumeStepUp, requireStepUp, type StepUpDependencies } from '../step-up/service.ts';
import { sendMicroDeposits, sendSandboxAmounts } from './micro-deposits.ts';
import {
  countLinks,
  findFundingSource,
  findFundingSourceByKey,
  findLiveFundingSourceByAccount,
  insertFundingSource,
  insertMicroDeposits,
  isIdentityApproved,
  listFundingSources,
  lockCustomer,
  markFailed,
  markRemoved,
  markVerified,
  microDepositsOf,
  recordWrongAmounts,
  type FundingSourceRow,
} from './repository.ts';

export { returnMicroDeposit } from './micro-deposit-returns.ts';
export { finishMicroDeposits, sendMicroDeposits } from './micro-deposits.ts';
export type { FundingSourceRow } from './repository.ts';

export interface FundingSourceDependencies {
  db: Database;
  sms: SmsSender;
  config: Pick<Config, 'mode' | 'bankName' | 'secrets'>;
  stepUp: StepUpDependencies;
  liveEvents?: LiveEvents;
}

const listLimit = 20;
const fundingSourceLink = '/deposit/sources';

export function presentFundingSource(row: FundingSourceRow): FundingSource {
  return {
    id: row.id,
    status: row.status,
    accountName: row.account_name,
    last4: row.last4,
    routeNumber: row.route_number,
    accountType: row.account_type,
    bankName: null,
    attemptsLeft: row.status === 'pending_verification' ? Math.max(fundingSourceVerifyAttempts - row.verify_attempts, 0) : 0,
    createdAt: row.created_at.toISOString(),
    verifiedAt: row.verified_at?.toISOString() ?? null,
  };
}

async function requireApprovedCustomer(db: Database, customerId: string): Promise<void> {
  if (!(await isIdentityApproved(db, customerId))) throw new AppError('forbidden', 'Account has not been approved');
}

/** The same account (route and number) always hashes alike for this bank, and to nothing readable. */
function accountKeyOf(secret: Buffer, routeNumber: string, accountNumber: string): Buffer {
  return keyedHash(secret, `funding-source:${routeNumber}:${accountNumber}`);
}

/**
 * Links an account the customer holds at another bank (docs/product.md section 6). A step-up comes
 * first, bound to this request (D10). The bank then sends two micro-deposits of 1-99 cents to it,
 * through the ledger, as the bank's own expense; the customer proves the account by typing both
 * amounts back. A repeated request with the same Idempotency-Key answers the same link; with another body, 422.
 */
export async function linkFundingSource(
  dependencies: FundingSourceDependencies,
  actor: CustomerActor,
  body: CreateFundingSourceRequest,
  headers: { idempotencyKey?: string; stepUpChallengeId?: string },
): Promise<FundingSource> {
  const { db, config } = dependencies;
  const hash = requestHash('funding-sources', body);
  // Without a key the step-up is bound to the body alone; the request is then not replayable.
  const stepUpKey = headers.idempotencyKey ?? `body-${hash.toString('hex').slice(0, 40)}`;
  if (headers.idempotencyKey) {
    const earlier = await findFundingSourceByKey(db, actor.customerId, headers.idempotencyKey);
    if (earlier) return replayedLink(earlier, hash);
  }
  await requireApprovedCustomer(db, actor.customerId);
  if (body.routeNumber === businessConstants.bankRoutingNumber) {
    throw new AppError('validation_failed', fundingSourceMessages.ownBank, { fields: { routeNumber: fundingSourceMessages.ownBank } });
  }
  const accountKey = accountKeyOf(config.secrets.sessionSecret, body.routeNumber, body.accountNumber);
  await refuseUnlessLinkable(db, actor.customerId, accountKey);

  const challenge = {
    customerId: actor.customerId,
    idempotencyKey: stepUpKey,
    requestHash: hash,
    amountCents: 0n,
    purpose: `linking your account ending ${body.accountNumber.slice(-4)} at another bank`,
    requestId: actor.requestId,
  };
  if (!headers.stepUpChallengeId) await requireStepUp(dependencies.stepUp, challenge);

  const sourceId = randomUUID();
  const microDeposits = [0, 1].map(() => ({ id: randomUUID(), amountCents: BigInt(randomInt(microDepositMinCents, microDepositMaxCents + 1)) }));
  const outcome = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      // One customer's links are made one at a time, so the limits below see every earlier one.
      await lockCustomer(tx, actor.customerId);
      if (!(await consumeStepUp(tx, actor.customerId, headers.stepUpChallengeId ?? '', stepUpKey, hash))) return { kind: 'step_up' as const };
      // Again under the lock: a link made since the first look counts.
      await refuseUnlessLinkable(tx, actor.customerId, accountKey);
      const row = await insertFundingSource(tx, {
        id: sourceId,
        customerId: actor.customerId,
        accountName: body.accountName,
        accountNumberEncrypted: encrypt(config.secrets.encryptionKey, Buffer.from(body.accountNumber)),
        accountKey,
        last4: body.accountNumber.slice(-4),
        routeNumber: body.routeNumber,
        accountType: body.accountType,
        idempotencyKey: headers.idempotencyKey ?? null,
        requestHash: headers.idempotencyKey ? hash : null,
      });
      if (!row) return { kind: 'conflict' as const };
      await insertMicroDeposits(tx, row.id, microDeposits);
      await sendMicroDeposits(tx, microDeposits);
      await notifyCustomer(tx, {
        customerId: actor.customerId,
        kind: 'funding_source',
        name: 'Account linked',
        text: `We sent two small deposits to your account ending ${row.last4}. When they arrive, enter both amounts under Deposit, Your other banks, to verify the account. We will never ask you for them by phone or email.`,
        link: fundingSourceLink,
      });
      return { kind: 'linked' as const, row };
    }),
  );
  if (outcome.kind === 'step_up') return requireStepUp(dependencies.stepUp, challenge);
  if (outcome.kind === 'conflict') {
    const replayed = headers.idempotencyKey ? await findFundingSourceByKey(db, actor.customerId, headers.idempotencyKey) : undefined;
    if (replayed) return replayedLink(replayed, hash);
    throw new AppError('conflict', fundingSourceMessages.alreadyLinked);
  }

  if (config.mode === 'sandbox') await sendSandboxAmounts(dependencies, actor.customerId, outcome.row.last4, microDeposits);
  await recordAudit(
    db,
    auditEntryOf(actor, {
      action: 'funding_source.link',
      subject: outcome.row.id,
      outcome: 'success',
      details: { last4: outcome.row.last4, routeNumber: outcome.row.route_number },
    }),
  );
  dependencies.liveEvents?.publish(actor.customerId, 'notifications');
  return presentFundingSource(outcome.row);
}

/**
 * A repeated request answers the link its key made, if it carries the same body: the same key with
 * another account is refused (422 `idempotency_key_reused`), as a payment's is. A link made before
 * its body was kept (migration 0029) has no hash to compare and answers as it always did.
 */
function replayedLink(row: FundingSourceRow & { request_hash: Buffer | Uint8Array | null }, hash: Buffer): FundingSource {
  if (row.request_hash) assertSameRequest(row.request_hash, hash);
  return presentFundingSource(row);
}

async function refuseUnlessLinkable(db: Queryable, customerId: string, accountKey: Buffer): Promise<void> {
  if (await findLiveFundingSourceByAccount(db, customerId, accountKey)) throw new AppError('conflict', fundingSourceMessages.alreadyLinked);
  const links = await countLinks(db, customerId);
  if (links.live >= fundingSourceMaxLive) throw new AppError('conflict', fundingSourceMessages.tooManyLive);
  if (links.lastDay >= fundingSourceLinksPerDay) throw new AppError('rate_limited', fundingSourceMessages.tooManyLinks);
}

function sortedCents(values: readonly bigint[]): string {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(',');
}

/**
 * Checks the two amounts, in either order. Three wrong answers and the link has `failed`: it must
 * be removed and linked again (a new pair of amounts, a new step-up), so guessing costs time.
 */
export async function verifyFundingSource(
  dependencies: FundingSourceDependencies,
  actor: CustomerActor,
  id: string,
  amountsCents: readonly number[],
): Promise<FundingSource> {
  const { db } = dependencies;
  const outcome = await db.transaction(async (tx) => {
    const source = await findFundingSource(tx, actor.customerId, id, { forUpdate: true });
    if (!source || source.status === 'removed') return { kind: 'missing' as const };
    if (source.status !== 'pending_verification') return { kind: 'not_pending' as const, source };
    const sent = await microDepositsOf(tx, source.id);
    const matches = sent.length === amountsCents.length && sortedCents(sent.map((deposit) => deposit.amount_cents)) === sortedCents(amountsCents.map(BigInt));
    if (matches) {
      const verified = await markVerified(tx, source.id);
      await notifyCustomer(tx, {
        customerId: actor.customerId,
        kind: 'funding_source',
        name: 'Account verified',
        text: `Your account ending ${verified.last4} is verified. You can now deposit from it.`,
        link: '/deposit',
      });
      return { kind: 'verified' as const, source: verified };
    }
    const after = await recordWrongAmounts(tx, source.id, fundingSourceVerifyAttempts);
    if (after.status === 'failed') {
      await notifyCustomer(tx, {
        customerId: actor.customerId,
        kind: 'funding_source',
        name: 'Account not verified',
        text: `The amounts entered for your account ending ${after.last4} were wrong three times, so it could not be verified. Remove it and link it again to get two new deposits.`,
        link: fundingSourceLink,
      });
    }
    return { kind: 'wrong' as const, source: after };
  });
  await recordAudit(
    db,
    auditEntryOf(actor, {
      action: 'funding_source.verify',
      subject: id,
      outcome: outcome.kind === 'verified' ? 'success' : 'failure',
      details: { outcome: outcome.kind },
    }),
  );
  dependencies.liveEvents?.publish(actor.customerId, 'notifications');
  switch (outcome.kind) {
    case 'missing':
      throw new AppError('not_found', 'No such account link');
    case 'not_pending':
      throw new AppError(
        'conflict',
        outcome.source.status === 'failed'
          ? 'This account could not be verified. Remove it and link it again to get two new deposits.'
          : fundingSourceMessages.notPending,
      );
    case 'wrong': {
      const left = fundingSourceVerifyAttempts - outcome.source.verify_attempts;
      const message =
        left > 0
          ? `Those amounts are not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`
          : 'Those amounts are not right, and no tries are left: this account could not be verified. Remove it and link it again.';
      throw new AppError('validation_failed', message, { fields: { amountsCents: message } });
    }
    case 'verified':
      return presentFundingSource(outcome.source);
  }
}

export async function fundingSourcesOf(db: Database, customerId: string): Promise<FundingSource[]> {
  return (await listFundingSources(db, customerId, listLimit)).map(presentFundingSource);
}

/**
 * Removal is allowed while a deposit from the source is pending: that deposit stays tied to it and
 * settles or is returned as usual; only new deposits can no longer name it.
 */
export async function removeFundingSource(dependencies: Pick<FundingSourceDependencies, 'db'>, actor: CustomerActor, id: string): Promise<void> {
  const removed = await markRemoved(dependencies.db, actor.customerId, id);
  await recordAudit(dependencies.db, auditEntryOf(actor, { action: 'funding_source.remove', subject: id, outcome: removed ? 'success' : 'failure' }));
  if (!removed) throw new AppError('not_found', 'No such account link');
}

/**
 * A source the bank itself vouches for, verified without micro-deposits: the sandbox's demo
 * customer and tests of other features. Customers always go through `linkFundingSource`.
 */
export async function seedVerifiedFundingSource(
  db: Database,
  encryptionKey: Buffer,
  keySecret: Buffer,
  source: { customerId: string; accountName: string; accountNumber: string; routeNumber: string; accountType: 'checking' | 'savings' },
): Promise<FundingSource> {
  const row = await insertFundingSource(db, {
    id: randomUUID(),
    customerId: source.customerId,
    accountName: source.accountName,
    accountNumberEncrypted: encrypt(encryptionKey, Buffer.from(source.accountNumber)),
    accountKey: accountKeyOf(keySecret, source.routeNumber, source.accountNumber),
    last4: source.accountNumber.slice(-4),
    routeNumber: source.routeNumber,
    accountType: source.accountType,
    idempotencyKey: null,
    requestHash: null,
    verified: true,
  });
  if (!row) throw new Error('this account is already linked for this customer');
  return presentFundingSource(row);
}

/**
 * The customer's source a deposit pulls from, if it is verified; anything else (missing, someone
 * else's, not yet verified, failed, removed) is undefined, so a caller answers them all alike.
 */
export async function verifiedFundingSource(db: Queryable, customerId: string, id: string): Promise<FundingSourceRow | undefined> {
  const source = await findFundingSource(db, customerId, id);
  return source?.status === 'verified' ? source : undefined;
}

/** The other bank returned a deposit with a code that ends the account (closed, missing, frozen): nothing more is pulled from it. */
export async function failFundingSource(db: Queryable, id: string): Promise<void> {
  await markFailed(db, id);
}
