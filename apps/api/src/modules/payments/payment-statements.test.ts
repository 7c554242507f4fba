import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import type { Database, Queryable, Transaction } from '../../db/database.ts';
import { buildTestApp } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit } from '../../test/payments.ts';

/**
 * What one payment asks of the database (issue 16, decision 044): a bank at its database's limit
 * spends no statement it can spare. Each statement of the request is recorded, in a transaction
 * or not, and the costly patterns it once had are checked to be gone.
 */
describeEachDatabase('the statements of one own transfer', (database) => {
  const recorded: string[] = [];
  let recording = false;
  let app: FastifyInstance;
  let config: Config;

  /** The database as it is, noting each statement's text while `recording`. */
  function recordingDatabase(db: Database): Database {
    const note = (text: string) => {
      if (recording) recorded.push(text.replace(/\s+/g, ' ').trim());
    };
    const wrap = (queryable: Queryable): Queryable => ({
      query: (text, params, options) => {
        note(text);
        return queryable.query(text, params, options);
      },
    });
    return {
      kind: db.kind,
      query: (text, params, options) => wrap(db).query(text, params, options),
      transaction: (work, options) =>
        db.transaction(
          (tx: Transaction) =>
            work({
              ...wrap(tx),
              executeScript: (script) => tx.executeScript(script),
            }),
          options,
        ),
      listen: (channel, onNotification, onReconnected) => db.listen(channel, onNotification, onReconnected),
      close: () => db.close(),
    };
  }

  const kit = paymentKit(() => ({ app, config, db: database() }));

  beforeAll(async () => {
    ({ app, config } = await buildTestApp(recordingDatabase(database()), { environment: { RAIL_SPEED: 'instant' } }));
  });
  afterAll(async () => {
    await kit.expectLedgerConsistent();
    await app.close();
  });

  it('reads the payer, the freeze and the key in one statement, both accounts in one, and writes the payment once, finished', async () => {
    const who = await kit.customer();
    recorded.length = 0;
    recording = true;
    const response = await kit.pay(who, '/transfers', {
      kind: 'own',
      fromAccountId: who.checking.id,
      toAccountId: who.savings.id,
      amountCents: 100,
      message: 'Counted',
    });
    // The live events of the request are sent when its turn of the event loop ends.
    await new Promise((resolve) => setImmediate(resolve));
    recording = false;
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ transfer: { status: string } }>().transfer.status).toBe('completed');

    const matching = (pattern: RegExp) => recorded.filter((text) => pattern.test(text));
    // One INSERT of the payment, with its final status; never 'creating' and then changed.
    expect(matching(/^INSERT INTO payments\b/)).toHaveLength(1);
    expect(matching(/^UPDATE payments\b/)).toEqual([]);
    // The freeze is read with the payer's name and the Idempotency-Key, not on its own.
    const freezeReads = matching(/FROM customer_freezes/);
    expect(freezeReads).toHaveLength(1);
    expect(freezeReads[0]).toMatch(/JOIN idempotency_keys/);
    expect(matching(/FROM idempotency_keys WHERE/)).toEqual([]);
    // Both accounts of the transfer in one statement.
    expect(matching(/JOIN customer_accounts a ON a\.id = w\.wanted/)).toHaveLength(1);
    // Its Idempotency-Key written once, with its answer: never claimed and then answered.
    expect(matching(/^INSERT INTO idempotency_keys\b/)).toHaveLength(1);
    expect(matching(/^UPDATE idempotency_keys\b/)).toEqual([]);
    // Its four live events in one notification.
    expect(matching(/pg_notify/)).toHaveLength(1);
    // Everything: the session, the rate limit, the payer, the accounts, and the group's transaction.
    expect(recorded.length, recorded.join('\n')).toBeLessThanOrEqual(16);
  });
});
