import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { TestClock } from '../db/clock.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { seededRandom, testSeed } from '../test/seed.ts';
import { balanceOf, lookupAccounts } from './accounts.ts';
import { checkLedger } from './check-ledger.ts';
import { createTransfers } from './create-transfers.ts';
import { expirePendingTransfers } from './expire.ts';
import { lookupTransfers } from './history.ts';
import { expectLedgerConsistent, openCustomerAccount, payment } from '../test/ledger.ts';
import { transferFlags, type TransferInput } from './types.ts';

const workerCount = 16;
const accountCount = 20;
const startingBalanceCents = 1_000n;
const runDurationMs = 3_000;
/** How far each round of the sweeper moves the clock: a one-second timeout passes in four rounds. */
const sweepStepMs = 250;

describeEachDatabase('ledger: concurrent writers', (database, kind) => {
  it('the same batch submitted twice at once creates each transfer once; the second answers exists', async () => {
    const customers = await Promise.all(Array.from({ length: 4 }, () => openCustomerAccount(database(), 1_000n)));
    const batch = Array.from({ length: 30 }, (_, index) => payment(customers[index % 4] ?? '', customers[(index + 1) % 4] ?? '', BigInt(index + 1)));
    const [first, second] = await Promise.all([createTransfers(database(), batch), createTransfers(database(), batch)]);
    for (const index of batch.keys()) {
      expect([first?.[index]?.result, second?.[index]?.result].sort()).toEqual(['exists', 'ok']);
    }
    expect(
      await lookupTransfers(
        database(),
        batch.map((transfer) => transfer.id),
      ),
    ).toHaveLength(batch.length);
    const total = (await lookupAccounts(database(), customers)).reduce((sum, account) => sum + balanceOf(account).balanceCents, 0n);
    expect(total).toBe(4_000n);
    await expectLedgerConsistent(database());
  });

  it('a transfer sent twice at once when the money suffices only once answers ok and exists, never exceeds_credits', async () => {
    for (let round = 0; round < 10; round += 1) {
      const customer = await openCustomerAccount(database(), 100n);
      const payee = await openCustomerAccount(database());
      const transfer = payment(customer, payee, 80n);
      const outcomes = await Promise.all([createTransfers(database(), [transfer]), createTransfers(database(), [transfer])]);
      expect(outcomes.map((batch) => batch[0]?.result).sort()).toEqual(['exists', 'ok']);
    }
    await expectLedgerConsistent(database());
  });

  it.skipIf(kind === 'pglite')(
    'sixteen workers moving money at random among twenty accounts for three seconds conserve it, keep every limit and never deadlock',
    async () => {
      const accounts = await Promise.all(Array.from({ length: accountCount }, () => openCustomerAccount(database(), startingBalanceCents)));
      // The dice are seeded; the order in which sixteen workers meet at the database is not.
      const random = seededRandom(testSeed());
      // Time passes only when the sweeper moves the clock, so reservations expire however busy the machine is.
      const clock = new TestClock();
      const pick = () => accounts[Math.floor(random() * accounts.length)] ?? '';
      const results = new Map<string, number>();
      const count = (result: string) => results.set(result, (results.get(result) ?? 0) + 1);
      const deadline = Date.now() + runDurationMs;

      async function worker(): Promise<void> {
        const myPendings: string[] = [];
        while (Date.now() < deadline) {
          const roll = random();
          let batch: TransferInput[];
          if (roll < 0.55) {
            // Up to 600 of a balance near 1,000: some must fail with exceeds_credits.
            batch = [payment(pick(), pick(), BigInt(1 + Math.floor(random() * 600)))];
          } else if (roll < 0.7) {
            const pending = {
              ...payment(pick(), pick(), BigInt(1 + Math.floor(random() * 300))),
              flags: transferFlags.pending,
              timeoutSeconds: random() < 0.5 ? 1 : 0,
            };
            myPendings.push(pending.id);
            batch = [pending];
          } else if (roll < 0.85 && myPendings.length > 0) {
            const pendingId = myPendings.splice(Math.floor(random() * myPendings.length), 1)[0] ?? '';
            const flags = random() < 0.5 ? transferFlags.postPendingTransfer : transferFlags.voidPendingTransfer;
            batch = [{ id: randomUUID(), pendingId, flags }];
          } else {
            // A small batch with a linked pair in the middle.
            batch = [
              payment(pick(), pick(), 50n),
              { ...payment(pick(), pick(), 70n), flags: transferFlags.linked },
              payment(pick(), pick(), 30n),
              payment(pick(), pick(), 400n),
            ];
          }
          for (const outcome of await createTransfers(database(), batch, clock)) count(outcome.result);
        }
      }

      async function sweeper(): Promise<void> {
        while (Date.now() < deadline) {
          clock.advance(sweepStepMs);
          await expirePendingTransfers(database(), clock);
        }
      }

      await Promise.all([...Array.from({ length: workerCount }, worker), sweeper()]);
      await expirePendingTransfers(database(), clock.later(5_000));

      expect(results.get('ok') ?? 0).toBeGreaterThan(100);
      expect(results.get('exceeds_credits') ?? 0).toBeGreaterThan(0);
      const final = await lookupAccounts(database(), accounts);
      const total = final.reduce((sum, account) => sum + balanceOf(account).balanceCents, 0n);
      expect(total).toBe(startingBalanceCents * BigInt(accountCount));
      for (const account of final) expect(balanceOf(account).availableCents).toBeGreaterThanOrEqual(0n);
      const check = await checkLedger(database());
      expect(check.violations).toEqual([]);
    },
  );
});
