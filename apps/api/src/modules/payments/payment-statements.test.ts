import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { recordingStatements, type RecordedStatement } from '../../test/recording-database.ts';
import { ownTransfer, paymentSuite } from '../../test/payments.ts';

/**
 * What one payment asks of the database (issue 16, decision 044): a bank at its database's limit
 * spends no statement it can spare. Each statement of the request is recorded, in a transaction
 * or not, and the costly patterns it once had are checked to be gone.
 */
describeEachDatabase('the statements of one own transfer', (database) => {
  /** Every statement sent, from the pool and in transactions; a case empties it before it counts. */
  const statements: RecordedStatement[] = [];

  const kit = paymentSuite(database, () => undefined, {
    environment: { RAIL_SPEED: 'instant' },
    appDatabase: (db) => recordingStatements(db, statements),
  });

  it('reads the payer, the freeze and the key in one statement, both accounts in one sent beside it, and writes the payment once, finished', async () => {
    const who = await kit.customer();
    statements.length = 0;
    const response = await kit.pay(who, '/transfers', ownTransfer(who.checking.id, who.savings.id, 100, 'Counted'));
    // The live events of the request are sent when its turn of the event loop ends.
    await new Promise((resolve) => setImmediate(resolve));
    const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
    const sent = statements.splice(0);
    const recorded = sent.map((statement) => oneLine(statement.text));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ transfer: { status: string } }>().transfer.status).toBe('completed');

    const matching = (pattern: RegExp) => recorded.filter((text) => pattern.test(text));
    // One INSERT of the payment, with its final status; never 'creating' and then changed.
    expect(matching(/^INSERT INTO payments\b/)).toHaveLength(1);
    expect(matching(/^UPDATE payments\b/)).toEqual([]);
    // The freeze is read with the payer's name and the Idempotency-Key, not on its own.
    const freezeReads = matching(/FROM customer_freezes/);
    expect(freezeReads).toHaveLength(1);
    expect(freezeReads[0]).toMatch(/JOIN LATERAL \(SELECT [^)]* FROM idempotency_keys k WHERE k\.customer_id = w\.customer_id/);
    expect(matching(/FROM idempotency_keys/)).toHaveLength(1);
    // Both accounts of the transfer in one statement, each a probe of the index, with its holder's approval.
    const accountReads = matching(/FROM customer_accounts a WHERE a\.id = w\.wanted LIMIT 1/);
    expect(accountReads).toHaveLength(1);
    expect(accountReads[0]).toMatch(
      /LEFT JOIN LATERAL \(SELECT true AS yes FROM identity_reviews r WHERE r\.customer_id = a\.customer_id AND r\.status = 'approved' LIMIT 1\)/,
    );
    // The payer and the accounts are read at once, whichever statement left first: one wait for
    // the two (decision 087). Before, the accounts were asked for once the payer was answered.
    // (PGlite runs in this process, one statement at a time, and may answer the first before the
    // second is sent: there is no round trip to share.)
    const sentAt = (pattern: RegExp) => sent.findIndex((statement) => pattern.test(oneLine(statement.text)));
    const [payerAt, accountsAt] = [sentAt(/FROM customer_freezes/), sentAt(/FROM customer_accounts a WHERE a\.id = w\.wanted LIMIT 1/)];
    const [first, second] = [sent[Math.min(payerAt, accountsAt)], sent[Math.max(payerAt, accountsAt)]];
    expect(Math.min(payerAt, accountsAt)).toBeGreaterThanOrEqual(0);
    if (database().kind === 'postgres') expect(second?.alongside).toContain(first?.text);
    // Its Idempotency-Key written once, with its answer: never claimed and then answered. Its audit
    // entry in the same statement, appended once the key is claimed (decision 088).
    const claims = matching(/INSERT INTO idempotency_keys\b/);
    expect(claims).toHaveLength(1);
    expect(claims[0]).toMatch(
      /^WITH claimed AS \(INSERT INTO idempotency_keys .* audited AS \(INSERT INTO audit_log .* WHERE \(SELECT count\(\*\) FROM \(SELECT payment_id FROM claimed\)/,
    );
    expect(matching(/INSERT INTO audit_log\b/)).toEqual(claims);
    expect(matching(/^UPDATE idempotency_keys\b/)).toEqual([]);
    // Its four live events in one notification.
    expect(matching(/pg_notify/)).toHaveLength(1);
    // Everything, ten statements (BEGIN and COMMIT aside): the session, the rate limit, the payer,
    // the accounts; in the group's transaction the ledger's lock, read and write, the payment, and
    // the key with the audit entry (eleven before decision 088); then the live events.
    expect(recorded.length, recorded.join('\n')).toBeLessThanOrEqual(10);
  });
});
