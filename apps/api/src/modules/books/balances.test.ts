import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfersIn } from '../../ledger/create-transfers.ts';
import { transferFlags, type TransferInput } from '../../ledger/types.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { openCustomerAccount } from '../../test/ledger.ts';
import { customerAccountBalancesThrough, glBalancesFromLedger, glBalancesFromLedgerOn, glBalancesThrough, type GlBalance } from './balances.ts';
import { closeBooksThrough } from './close.ts';

/**
 * The general ledger's balances (docs/books.md, "Reports"): posted money only, booked through a
 * day inclusive, grouped by the chart; a closed day's kept balances plus the rows after it; the
 * ledger alone gives the same unless something slipped into a closed day.
 */
const [first, second, third] = ['2026-03-02', '2026-03-03', '2026-03-04'];

/** Writes transfers booked on `day` (asked for explicitly, as the books' adjusting entries do). */
async function bookOn(db: Database, day: string, transfers: TransferInput[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('strongroom.posted_on', $1, true)`, [day]);
    const outcomes = await createTransfersIn(tx, transfers);
    expect(outcomes.map((outcome) => outcome.result)).toEqual(transfers.map(() => 'ok'));
  });
}

const sides = (balances: Map<string, GlBalance>, account: string) => {
  const balance = balances.get(account);
  return balance && { debits: balance.debits, credits: balance.credits };
};

describeEachDatabase('general-ledger balances', (database) => {
  const reserved = randomUUID();
  const voided = randomUUID();
  let orphan: string;

  beforeAll(async () => {
    // A deposit account no customer account points at: booked to 2190.
    orphan = await openCustomerAccount(database());
    const usd = { ledger: 840 };
    await bookOn(database(), first, [
      {
        id: randomUUID(),
        debitAccountId: operatorAccounts.bankCapital,
        creditAccountId: orphan,
        amountCents: 10_000n,
        ...usd,
        code: transferCodes.accountFunding,
      },
      {
        id: reserved,
        debitAccountId: orphan,
        creditAccountId: operatorAccounts.settlementAch,
        amountCents: 3_000n,
        ...usd,
        code: transferCodes.externalTransfer,
        flags: transferFlags.pending,
      },
      {
        id: voided,
        debitAccountId: orphan,
        creditAccountId: operatorAccounts.settlementWire,
        amountCents: 2_000n,
        ...usd,
        code: transferCodes.externalTransfer,
        flags: transferFlags.pending,
      },
    ]);
    // The next day, the rail settles less than was reserved and the other payment is voided.
    await bookOn(database(), second, [
      { id: randomUUID(), pendingId: reserved, amountCents: 2_500n, flags: transferFlags.postPendingTransfer },
      { id: randomUUID(), pendingId: voided, flags: transferFlags.voidPendingTransfer },
    ]);
    await bookOn(database(), third, [
      {
        id: randomUUID(),
        debitAccountId: operatorAccounts.marketingExpense,
        creditAccountId: orphan,
        amountCents: 700n,
        ...usd,
        code: transferCodes.referralBonus,
      },
    ]);
  });

  it('counts posted money only, booked through the day asked for', async () => {
    const before = await glBalancesThrough(database(), '2026-03-01');
    expect([...before.values()].every((balance) => balance.debits === 0n && balance.credits === 0n)).toBe(true);
    const onFirst = await glBalancesThrough(database(), first);
    // The reservations moved no posted money: only the funding counts.
    expect(sides(onFirst, '2190')).toEqual({ debits: 0n, credits: 10_000n });
    expect(sides(onFirst, '3000')).toEqual({ debits: 10_000n, credits: 0n });
    expect(sides(onFirst, '1010')).toEqual({ debits: 0n, credits: 0n });
    const onSecond = await glBalancesThrough(database(), second);
    expect(sides(onSecond, '2190')).toEqual({ debits: 2_500n, credits: 10_000n });
    expect(sides(onSecond, '1010')).toEqual({ debits: 0n, credits: 2_500n });
    expect(sides(onSecond, '1020')).toEqual({ debits: 0n, credits: 0n });
    const onThird = await glBalancesThrough(database(), third);
    expect(sides(onThird, '5100')).toEqual({ debits: 700n, credits: 0n });
    expect(sides(onThird, '2190')).toEqual({ debits: 2_500n, credits: 10_700n });
    const debits = [...onThird.values()].reduce((sum, balance) => sum + balance.debits, 0n);
    const credits = [...onThird.values()].reduce((sum, balance) => sum + balance.credits, 0n);
    expect(debits).toBe(credits);
  });

  it('leaves a deposit account of no customer account out of the customer accounts total', async () => {
    expect(await customerAccountBalancesThrough(database(), third)).toBe(0n);
  });

  it("reads a closed day's kept balances and the rows after them, which the ledger alone agrees with", async () => {
    await closeBooksThrough(database(), second, 'balances-test');
    for (const day of [first, second, third]) expect(await glBalancesThrough(database(), day)).toEqual(await glBalancesFromLedger(database(), day));
    // check-books reads every closed day in one pass: the same figures as one day at a time.
    const onEach = await glBalancesFromLedgerOn(database(), [third, first, '2026-03-01', second]);
    expect([...onEach.keys()]).toEqual(['2026-03-01', first, second, third]);
    for (const day of [first, second, third, '2026-03-01']) expect(onEach.get(day)).toEqual(await glBalancesFromLedger(database(), day));
    // A row slipped into the closed day past the dating trigger: the kept day does not move, the ledger's recomputation does.
    await database().transaction(async (tx) => {
      await tx.query('ALTER TABLE ledger_transfers DISABLE TRIGGER ledger_transfers_posted_on');
      await tx.query(`ALTER TABLE ledger_transfers ALTER COLUMN posted_on SET DEFAULT '${second}'`);
      await createTransfersIn(tx, [
        {
          id: randomUUID(),
          debitAccountId: operatorAccounts.interestExpense,
          creditAccountId: orphan,
          amountCents: 11n,
          ledger: 840,
          code: transferCodes.interest,
        },
      ]);
      await tx.query('ALTER TABLE ledger_transfers ALTER COLUMN posted_on DROP DEFAULT');
      await tx.query('ALTER TABLE ledger_transfers ENABLE TRIGGER ledger_transfers_posted_on');
    });
    expect(sides(await glBalancesThrough(database(), second), '5000')).toEqual({ debits: 0n, credits: 0n });
    expect(sides(await glBalancesFromLedger(database(), second), '5000')).toEqual({ debits: 11n, credits: 0n });
    // A day after the close reads the kept day plus the rows booked after it: the slipped row is not among them.
    expect(sides(await glBalancesThrough(database(), third), '5100')).toEqual({ debits: 700n, credits: 0n });
    expect(sides(await glBalancesThrough(database(), third), '5000')).toEqual({ debits: 0n, credits: 0n });
  });
});
