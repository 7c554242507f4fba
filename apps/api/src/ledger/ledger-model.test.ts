import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { TestClock } from '../db/clock.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { testSeed } from '../test/seed.ts';
import type { Database } from '../db/database.ts';
import { createAccounts, lookupAccounts } from './accounts.ts';
import { checkLedger } from './check-ledger.ts';
import { accountCodes, transferCodes } from './codes.ts';
import { createTransfers } from './create-transfers.ts';
import { expirePendingTransfers } from './expire.ts';
import { applyModelBatch, emptyModel, expireModel, type ModelRequest, type ModelState } from '../test/ledger-model.ts';
import { usd } from '../test/ledger.ts';
import { accountFlags, transferFlags } from './types.ts';

/** Timeouts the generator uses: the sweep in these tests expires the short one only, whatever the real time. */
const shortTimeoutSeconds = 60;
const longTimeoutSeconds = 3_600;
const sweepAheadMs = 120_000;

/** Mostly the two customers and the operator account; now and then the loan-like one or no account at all. */
const accountIndex = fc.constantFrom(0, 0, 0, 1, 1, 1, 2, 3, 3, 4);
/** Index of the "target" draw above which a post or void names a pending transfer that never existed. */
const unknownTargetFrom = 28;

const operation = fc.record({
  kind: fc.constantFrom('transfer', 'transfer', 'transfer', 'pending', 'pending', 'post', 'void', 'resend', 'expire'),
  debit: accountIndex,
  credit: accountIndex,
  amountCents: fc.oneof({ weight: 1, arbitrary: fc.constant(0n) }, { weight: 15, arbitrary: fc.bigInt(1n, 400n) }),
  partial: fc.boolean(),
  linked: fc.nat(6).map((draw) => draw === 0),
  timeoutSeconds: fc.constantFrom(0, shortTimeoutSeconds, longTimeoutSeconds),
  target: fc.nat(30),
  tweak: fc.constantFrom('none', 'none', 'amount', 'code', 'debit'),
});
type Operation = typeof operation extends fc.Arbitrary<infer Value> ? Value : never;
const program = fc.array(fc.array(operation, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 12 });

interface Run {
  accountIds: string[];
  sent: ModelRequest[];
  pendings: ModelRequest[];
}

function toRequest(run: Run, op: Operation): ModelRequest {
  const linked = op.linked ? transferFlags.linked : 0;
  const pick = <T>(list: readonly T[]) => list[op.target % Math.max(list.length, 1)];
  if (op.kind === 'post' || op.kind === 'void') {
    const pendingId = op.target >= unknownTargetFrom ? randomUUID() : (pick(run.pendings)?.id ?? randomUUID());
    const post = op.kind === 'post';
    return {
      id: randomUUID(),
      pendingId,
      amountCents: post && op.partial ? op.amountCents : undefined,
      flags: (post ? transferFlags.postPendingTransfer : transferFlags.voidPendingTransfer) | linked,
    };
  }
  const earlier = pick(run.sent);
  if (op.kind === 'resend' && earlier) {
    if (op.tweak === 'amount') return { ...earlier, amountCents: (earlier.amountCents ?? 0n) + 1n };
    if (op.tweak === 'code') return { ...earlier, code: transferCodes.fee };
    if (op.tweak === 'debit') return { ...earlier, debitAccountId: run.accountIds[op.debit] };
    return earlier;
  }
  const pending = op.kind === 'pending';
  return {
    id: randomUUID(),
    debitAccountId: run.accountIds[op.debit],
    creditAccountId: run.accountIds[op.credit],
    amountCents: op.amountCents,
    timeoutSeconds: pending ? op.timeoutSeconds : undefined,
    ledger: usd,
    code: transferCodes.internalTransfer,
    flags: (pending ? transferFlags.pending : 0) | linked,
  };
}

async function expectSameBalances(db: Database, model: ModelState, accountIds: readonly string[]): Promise<void> {
  const accounts = await lookupAccounts(db, accountIds.slice(0, 4));
  for (const account of accounts) {
    const expected = model.accounts.get(account.id);
    expect([account.debitsPendingCents, account.debitsPostedCents, account.creditsPendingCents, account.creditsPostedCents]).toEqual([
      expected?.debitsPending,
      expected?.debitsPosted,
      expected?.creditsPending,
      expected?.creditsPosted,
    ]);
  }
}

describeEachDatabase('ledger: agrees with a plain model on random programs', (database) => {
  it('random creates, pendings, posts, voids, resends and expiries give the model results, balances and invariants', async () => {
    const seed = testSeed();
    await fc.assert(
      fc.asyncProperty(program, async (batches) => {
        const db = database();
        // The clock stands still: no deadline passes between two batches, however slow the machine.
        const clock = new TestClock();
        // Two customer accounts that may not be overdrawn, a loan-like account that may not be
        // credited beyond its debits, an unlimited operator account, and an id that is no account.
        const flags = [accountFlags.debitsMustNotExceedCredits, accountFlags.debitsMustNotExceedCredits, accountFlags.creditsMustNotExceedDebits, 0];
        const run: Run = { accountIds: [...flags.map(() => randomUUID()), randomUUID()], sent: [], pendings: [] };
        await createAccounts(
          db,
          flags.map((accountFlag, index) => ({
            id: run.accountIds[index] ?? '',
            ledger: usd,
            code: accountCodes.customerChecking,
            flags: accountFlag,
          })),
        );
        const model = emptyModel();
        for (const [index, accountFlag] of flags.entries()) {
          model.accounts.set(run.accountIds[index] ?? '', {
            flags: accountFlag,
            debitsPending: 0n,
            debitsPosted: 0n,
            creditsPending: 0n,
            creditsPosted: 0n,
          });
        }
        const funding = [0, 1].map((index): ModelRequest => ({
          id: randomUUID(),
          debitAccountId: run.accountIds[3],
          creditAccountId: run.accountIds[index],
          amountCents: 500n,
          ledger: usd,
          code: transferCodes.accountFunding,
          flags: 0,
        }));
        applyModelBatch(model, funding);
        await createTransfers(db, funding, clock);

        for (const operations of batches) {
          const requests = operations.filter((op) => op.kind !== 'expire').map((op) => toRequest(run, op));
          if (requests.length > 0) {
            const expected = applyModelBatch(model, requests);
            const outcomes = await createTransfers(db, requests, clock);
            expect(outcomes.map((outcome) => outcome.result)).toEqual(expected);
            run.sent.push(...requests);
            // Posts and voids aim at pending transfers that exist; a few aim at unknown ids instead.
            run.pendings.push(...requests.filter((request, index) => (request.flags & transferFlags.pending) !== 0 && expected[index] === 'ok'));
          }
          if (operations.some((op) => op.kind === 'expire')) {
            expireModel(model, shortTimeoutSeconds);
            await expirePendingTransfers(db, clock.later(sweepAheadMs));
          }
          await expectSameBalances(db, model, run.accountIds);
        }
        const check = await checkLedger(db);
        expect(check.violations).toEqual([]);
      }),
      { numRuns: 60, seed },
    );
  });
});
