import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { recordingStatements, type RecordedStatement } from '../../test/recording-database.ts';
import { listFirstPage, listLines, type LineRow } from './repository.ts';

/**
 * First pages of history asked for at the same moment are read in one statement (issue 37), and
 * each is exactly the page `listLines` reads alone: the same lines, in the same order, under the
 * same rules (a held internal transfer from someone else is not the recipient's yet).
 */
describeEachDatabase('history first pages read together', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant' } });

  const idsOf = (lines: readonly LineRow[]) => lines.map((line) => `${line.id}:${line.side}:${line.account_id}:${line.created_text}`);

  it('answers each page as listLines does, all of them in one statement, and a transaction reads its own', async () => {
    expect(app).toBeDefined();
    const db = database();
    const dana = await kit.customer({ fundCents: 2_000_000n, firstName: 'Dana', lastName: 'Demo' });
    const erin = await kit.customer({ fundCents: 50_000n, firstName: 'Erin', lastName: 'Example' });
    const fred = await kit.customer({ fundCents: 0n, firstName: 'Fred', lastName: 'Idle' });
    for (let index = 0; index < 4; index += 1) await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100 + index, `move ${index}`));
    // Held for review: Dana's line, not yet Erin's.
    expect((await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents: 1_000_000, message: 'Car' })).json().transfer.status).toBe(
      'in_review',
    );
    await kit.payCustomer(erin, dana, { accountName: 'Dana Demo', amountCents: 2_500, message: 'Lunch' });
    await kit.pay(erin, '/deposits', { accountId: erin.checking.id, fundingSourceId: erin.fundingSourceId, amountCents: 2_000, reason: 'Cheque' });

    const pages = (who: PayingCustomer, limit: number) => [
      { query: { customerId: who.id, accountId: null, limit }, accountIds: [who.checking.id, who.savings.id] },
      { query: { customerId: who.id, accountId: who.checking.id, limit }, accountIds: [who.checking.id] },
      { query: { customerId: who.id, accountId: who.savings.id, limit }, accountIds: [who.savings.id] },
    ];
    const asked = [...pages(dana, 3), ...pages(dana, 21), ...pages(erin, 21), ...pages(fred, 21), ...pages(erin, 1)];
    // Someone else's account, and one that does not exist, in the same statement: no line of theirs, and not owned.
    const strangers = [
      { customerId: erin.id, accountId: dana.checking.id, limit: 21 },
      { customerId: fred.id, accountId: randomUUID(), limit: 21 },
    ];
    const statements: RecordedStatement[] = [];
    const recording = recordingStatements(db, statements);
    const [read, refused] = await Promise.all([
      Promise.all(asked.map(({ query }) => listFirstPage(recording, query))),
      Promise.all(strangers.map((query) => listFirstPage(recording, query))),
    ]);
    expect(statements).toHaveLength(1);
    expect(refused).toEqual([
      { owned: false, lines: [] },
      { owned: false, lines: [] },
    ]);
    expect(read.every((page) => page.owned)).toBe(true);
    const together = read.map((page) => page.lines);

    const alone = await Promise.all(
      asked.map(({ query, accountIds }) =>
        listLines(db, {
          customerId: query.customerId,
          accountIds,
          sides: { out: null, in: null },
          cursor: null,
          timeZone: 'UTC',
          limit: query.limit,
        }),
      ),
    );
    expect(together.map(idsOf)).toEqual(alone.map(idsOf));
    expect(together[0]).toHaveLength(3);
    // Dana's lines: funding, four own transfers on both sides, the held payment, Erin's lunch.
    expect(together[3]).toHaveLength(11);
    expect(together[3]?.[0]).toMatchObject({ kind: 'internal', side: 'in', message: 'Lunch' });
    // Erin sees neither side of the held payment; Fred's pages are empty.
    expect(together[6]?.some((line) => line.message === 'Car')).toBe(false);
    expect(together[9]).toEqual([]);
    expect(together[12]).toHaveLength(1);
    expect(together[3]?.[0]?.created_at).toBeInstanceOf(Date);
    expect(typeof together[3]?.[0]?.amount_cents).toBe('bigint');

    const inTransaction = await db.transaction(async (tx) => listFirstPage(tx, { customerId: dana.id, accountId: null, limit: 21 }));
    expect(idsOf(inTransaction.lines)).toEqual(idsOf(alone[3] ?? []));
  });
});
