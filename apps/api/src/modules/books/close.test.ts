import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TestClock, type Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { operatorAccounts } from '../../ledger/codes.ts';
import { startOfDayIn } from '../../platform/bank-date.ts';
import { addDays, calendarDayIn } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { bookMovements } from '../money/service.ts';
import { BooksCloseRefused, booksState, closeBooksThrough, isBusinessDayClosedError } from './close.ts';

/**
 * Issue 35 item 3 (docs/books.md, "Closing a day"): a closed day's books never change. A transfer
 * made after a close is booked on the open day whatever its clock says; a writer asking for a
 * closed day is refused; the kept balances refuse updates and deletes; closing is idempotent.
 */
const timeZone = 'America/New_York';
const today = calendarDayIn(timeZone, new Date());
/** Noon of today in the bank's zone: a created_at well inside today's business date. */
const noonToday = (): TestClock => new TestClock(new Date(startOfDayIn(timeZone, today).getTime() + 12 * 60 * 60 * 1000));

/** A posted transfer between two of the bank's own accounts (no limits), booked through the money module; on `postedOn` when asked. */
async function book(db: Database, amountCents: bigint, options: { clock?: Clock; postedOn?: string } = {}): Promise<string> {
  const id = randomUUID();
  await db.transaction(async (tx) => {
    if (options.postedOn) await tx.query(`SELECT set_config('strongroom.posted_on', $1, true)`, [options.postedOn]);
    const [answer] = await bookMovements(
      tx,
      [
        {
          id,
          kind: 'adjustment',
          fromLedgerAccountId: operatorAccounts.reconciliationDifferences,
          toLedgerAccountId: operatorAccounts.settlementWire,
          amountCents,
        },
      ],
      { clock: options.clock },
    );
    expect(answer).toEqual({ outcome: 'booked' });
  });
  return id;
}

async function bookedDay(db: Database, transferId: string): Promise<{ postedOn: string; createdOn: string }> {
  const [row] = await db.query<{ posted_on: string; created_on: string }>(
    `SELECT to_char(posted_on, 'YYYY-MM-DD') AS posted_on, to_char((created_at AT TIME ZONE 'America/New_York')::date, 'YYYY-MM-DD') AS created_on
       FROM ledger_transfers WHERE id = $1`,
    [transferId],
  );
  if (!row) throw new Error(`no transfer ${transferId}`);
  return { postedOn: row.posted_on, createdOn: row.created_on };
}

async function keptBalance(db: Database, day: string, glAccount: string): Promise<{ debits: string; credits: string } | undefined> {
  const [row] = await db.query<{ debits: string; credits: string }>(
    'SELECT debits_cents::text AS debits, credits_cents::text AS credits FROM books_day_balances WHERE day = $1::date AND gl_account = $2',
    [day, glAccount],
  );
  return row;
}

describeEachDatabase('closing a day: nothing is booked on it afterwards, and what it kept never changes', (database) => {
  const config = { bankTimeZone: timeZone };

  it('before any close the open day is the bank date; a close keeps the balances through the day, balanced, audited as the system', async () => {
    expect(await booksState(database(), config, noonToday())).toEqual({ closedThrough: null, openDay: today, timeZone });
    const first = await book(database(), 1_234n, { clock: noonToday() });
    expect(await bookedDay(database(), first)).toEqual({ postedOn: today, createdOn: today });

    expect(await closeBooksThrough(database(), today, 'end-of-day', noonToday())).toEqual({ closed: [today] });

    expect(await booksState(database(), config, noonToday())).toEqual({ closedThrough: today, openDay: addDays(today, 1), timeZone });
    // The wire settlement account (1020) was credited and the reconciliation differences (5400) debited.
    expect(await keptBalance(database(), today, '1020')).toEqual({ debits: '0', credits: '1234' });
    expect(await keptBalance(database(), today, '5400')).toEqual({ debits: '1234', credits: '0' });
    const [closedDay] = await database().query<{ closed_by: string; debits: string; credits: string }>(
      'SELECT closed_by, debits_cents::text AS debits, credits_cents::text AS credits FROM books_closed_days WHERE day = $1::date',
      [today],
    );
    expect(closedDay?.closed_by).toBe('end-of-day');
    expect(closedDay?.debits).toBe(closedDay?.credits);
    expect(BigInt(closedDay?.debits ?? '0')).toBeGreaterThanOrEqual(1_234n);
    const audits = await database().query<{ actor_type: string; actor_id: string }>(
      "SELECT actor_type, actor_id FROM audit_log WHERE action = 'books.day_closed' AND subject = $1",
      [today],
    );
    expect(audits).toEqual([{ actor_type: 'system', actor_id: 'end-of-day' }]);
  });

  it('a transfer made after the close is booked on the open day, even when its created_at is inside the closed day', async () => {
    const late = await book(database(), 500n, { clock: noonToday() });
    expect(await bookedDay(database(), late)).toEqual({ postedOn: addDays(today, 1), createdOn: today });
    // The closed day's kept balances did not take it.
    expect(await keptBalance(database(), today, '1020')).toEqual({ debits: '0', credits: '1234' });
  });

  it('a writer asking for a closed day is refused with SR035 and nothing is written; an open day it may ask for', async () => {
    const refused = await book(database(), 700n, { postedOn: today }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isBusinessDayClosedError(refused)).toBe(true);
    expect(await database().query('SELECT id FROM ledger_transfers WHERE amount = 700')).toEqual([]);
    const earlier = await book(database(), 701n, { postedOn: addDays(today, -30) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isBusinessDayClosedError(earlier)).toBe(true);

    const later = await book(database(), 702n, { postedOn: addDays(today, 2) });
    expect((await bookedDay(database(), later)).postedOn).toBe(addDays(today, 2));
    expect(isBusinessDayClosedError(new Error('something else'))).toBe(false);
  });

  it("a closed day's kept balances and its close refuse every update and delete", async () => {
    const attempts = [
      "UPDATE books_day_balances SET debits_cents = debits_cents + 1 WHERE gl_account = '1020'",
      "DELETE FROM books_day_balances WHERE gl_account = '1020'",
      'UPDATE books_closed_days SET debits_cents = debits_cents + 1, credits_cents = credits_cents + 1',
      'DELETE FROM books_closed_days',
    ];
    for (const statement of attempts) {
      await expect(database().query(statement), statement).rejects.toThrow(/closed day's books never change/);
    }
    expect(await keptBalance(database(), today, '1020')).toEqual({ debits: '0', credits: '1234' });
    expect(await database().query('SELECT day FROM books_closed_days')).toHaveLength(1);
  });

  it('closing is idempotent and takes every day up to the one asked for; production refuses a day after its today', async () => {
    expect(await closeBooksThrough(database(), today, 'end-of-day')).toEqual({ closed: [] });
    expect(await closeBooksThrough(database(), addDays(today, -3), 'end-of-day')).toEqual({ closed: [] });
    const production = { mode: 'production' as const, bankTimeZone: timeZone };
    await expect(closeBooksThrough(database(), addDays(today, 3), 'ops-cli', undefined, { config: production })).rejects.toBeInstanceOf(BooksCloseRefused);
    expect((await booksState(database(), config)).closedThrough).toBe(today);

    // A sandbox may close ahead: three days at once, recorded as one close on the last.
    const through = addDays(today, 3);
    expect(
      await closeBooksThrough(database(), through, 'ops-cli', undefined, { actorType: 'staff', config: { mode: 'sandbox', bankTimeZone: timeZone } }),
    ).toEqual({
      closed: [through],
    });
    expect(await closeBooksThrough(database(), through, 'ops-cli')).toEqual({ closed: [] });
    expect(await booksState(database(), config)).toMatchObject({ closedThrough: through, openDay: addDays(through, 1) });
    // Every day up to it is closed, the one booked on in the meantime included: the kept balances took that transfer.
    expect(await keptBalance(database(), through, '1020')).toEqual({ debits: '0', credits: String(1_234 + 500 + 702) });
    for (const day of [addDays(today, 1), addDays(today, 2), through]) {
      const refused = await book(database(), 703n, { postedOn: day }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isBusinessDayClosedError(refused), day).toBe(true);
    }
    const now = await book(database(), 704n);
    expect((await bookedDay(database(), now)).postedOn).toBe(addDays(through, 1));
    const audits = await database().query<{ actor_type: string; actor_id: string; subject: string }>(
      "SELECT actor_type, actor_id, subject FROM audit_log WHERE action = 'books.day_closed' ORDER BY id",
    );
    expect(audits).toEqual([
      { actor_type: 'system', actor_id: 'end-of-day', subject: today },
      { actor_type: 'staff', actor_id: 'ops-cli', subject: through },
    ]);
    await expect(closeBooksThrough(database(), '2026-02-30', 'ops-cli')).rejects.toThrow(RangeError);
  });
});

describeEachDatabase('closing a day while transfers are being booked', (database, kind) => {
  // PGlite runs one transaction at a time, so nothing can commit during a close there.
  describe.skipIf(kind !== 'postgres')('on PostgreSQL', () => {
    it('every transfer committed concurrently with a close is in the closed day or booked on the next one, never lost', async () => {
      const amounts = Array.from({ length: 50 }, (_, index) => BigInt(index + 1));
      // The close starts once 20 transfers have committed, while the others are starting or in flight.
      let committed = 0;
      let startClose = () => {};
      const twentyCommitted = new Promise<void>((resolve) => (startClose = resolve));
      const transfers = amounts.map(async (amountCents, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * 2));
        const id = await book(database(), amountCents);
        committed += 1;
        if (committed === 20) startClose();
        return id;
      });
      await twentyCommitted;
      const closing = closeBooksThrough(database(), today, 'end-of-day');
      const ids = await Promise.all(transfers);
      expect(await closing).toEqual({ closed: [today] });

      const rows = await database().query<{ posted_on: string; amount: bigint }>(
        `SELECT to_char(posted_on, 'YYYY-MM-DD') AS posted_on, amount FROM ledger_transfers WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      expect(rows).toHaveLength(50);
      for (const row of rows) expect([today, addDays(today, 1)]).toContain(row.posted_on);
      // The 20 committed before the close began are in the closed day, whatever the others did.
      expect(rows.filter((row) => row.posted_on === today).length).toBeGreaterThanOrEqual(20);
      const inClosedDay = rows.filter((row) => row.posted_on === today).reduce((sum, row) => sum + row.amount, 0n);
      const after = rows.filter((row) => row.posted_on !== today).reduce((sum, row) => sum + row.amount, 0n);
      // The kept balance of the wire settlement account is exactly what was booked on the closed day...
      expect(await keptBalance(database(), today, '1020')).toEqual({ debits: '0', credits: String(inClosedDay) });
      // ...and with what was booked after it, it is the ledger's counter: nothing lost, nothing counted twice.
      const [counter] = await database().query<{ credits_posted: bigint }>('SELECT credits_posted FROM ledger_accounts WHERE id = $1', [
        operatorAccounts.settlementWire,
      ]);
      expect(inClosedDay + after).toBe(amounts.reduce((sum, amount) => sum + amount, 0n));
      expect(counter?.credits_posted).toBe(inClosedDay + after);
    });
  });
});
