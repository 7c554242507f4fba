import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nacha from '@midlandsbank/node-nacha';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { lookupAccounts } from '../../ledger/accounts.ts';
import { operatorAccounts } from '../../ledger/codes.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { productionAppOptions } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { buildReturnsFile, type ReturnedEntry } from '../../test/nacha-returns.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';

/**
 * In production a deposit is an ACH debit the bank pulls from another bank: it settles when the
 * rail says so, never by a timer (docs/product.md section 6). Staff send the pending entries in a NACHA
 * file, record settlements and returns, and import the rail's returns file.
 */
describeEachDatabase('the ACH rail in production: NACHA file, settlements and returns', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let directory: string;
  const kit = paymentSuite(
    database,
    (built) => ({ app, config } = built),
    (db) => productionAppOptions(db),
  );
  const ops = (command: string, args: string[]) =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents, workingDirectory: directory }, command, args);
  const deposit = async (who: PayingCustomer, amountCents: number) => {
    const response = await kit.pay(who, '/deposits', {
      accountId: who.checking.id,
      fundingSourceId: who.fundingSourceId,
      amountCents,
      reason: 'From my other bank',
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().transfer as { id: string; status: string };
  };
  const statusOf = async (who: PayingCustomer, id: string) => (await who.browser.get(`/api/v1/transfers/${id}`)).json().transfer.status;
  /** Every pending payment is due now: a timer would settle them all. */
  const makeEverythingDue = () => database().query("UPDATE payments SET settle_at = now() - interval '1 day' WHERE status = 'pending'");

  async function writeAchFile(name: string): Promise<string> {
    const result = await ops('ach-file', ['--out', name, '--reason', 'Daily ACH file']);
    expect(result.exitCode, result.output).toBe(0);
    return readFile(path.join(directory, name), 'utf8');
  }

  async function traceOf(paymentId: string): Promise<string> {
    const [row] = await database().query<{ trace_number: string }>('SELECT trace_number FROM ach_entries WHERE payment_id = $1', [paymentId]);
    if (!row) throw new Error(`payment ${paymentId} is in no ACH file`);
    return row.trace_number;
  }

  const returnedDebit = (originalTraceNumber: string, amountCents: bigint, returnCode = 'R01'): ReturnedEntry => ({
    transactionCode: 26,
    originalTraceNumber,
    returnCode,
    amountCents,
    accountNumber: '7788990055',
    routingNumber: '011000015',
    name: 'DEMO CUSTOMER',
  });

  async function importReturns(entries: ReturnedEntry[], name: string, options: { corruptTotals?: boolean } = {}) {
    await writeFile(path.join(directory, name), buildReturnsFile(entries, options));
    return ops('ach-import-returns', [name, '--reason', 'Returns file from the Federal Reserve']);
  }

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'strongroom-ach-'));
  });

  it('never settles a deposit by its time in production, while a payment to another bank still settles on the rail’s promise', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const pulled = await deposit(dana, 20_000);
    const sent = (await kit.payOtherBank(dana, { toAccountNumber: '5566778899', accountName: 'Landlord', amountCents: 10_000, message: 'Rent' })).json()
      .transfer;
    await makeEverythingDue();
    await kit.runJobs();
    expect(await statusOf(dana, pulled.id)).toBe('pending');
    expect(await statusOf(dana, sent.id)).toBe('completed');
    expect((await kit.balances(dana)).checking).toEqual({ balanceCents: 40_000, availableCents: 40_000 });
    const settled = await ops('ach-settle', [pulled.id, '--reason', 'Settled in the rail file of 24 November']);
    expect(settled.exitCode, settled.output).toBe(0);
    expect(await statusOf(dana, pulled.id)).toBe('completed');
    expect((await kit.balances(dana)).checking).toEqual({ balanceCents: 60_000, availableCents: 60_000 });
    expect((await ops('ach-settle', [pulled.id, '--reason', 'Again'])).exitCode).toBe(1);
    expect((await ops('ach-settle', [pulled.id])).exitCode).toBe(2);
    const [audit] = await database().query<{ actor_type: string; details: { reason: string } }>(
      "SELECT actor_type, details FROM audit_log WHERE action = 'payment.rail_settled' AND subject = $1",
      [pulled.id],
    );
    expect(audit).toMatchObject({ actor_type: 'staff', details: { reason: 'Settled in the rail file of 24 November' } });
  });

  it('writes pending deposits as debits (27/37), payments to other banks and micro-deposits as credits, each in one file only', async () => {
    // Whatever earlier tests left waiting goes out first.
    await ops('ach-file', ['--out', 'earlier.ach', '--reason', 'Clear the rail']);
    const dana = await kit.customer({ fundCents: 50_000n });
    const pulled = await deposit(dana, 12_345);
    const sent = (await kit.payOtherBank(dana, { toAccountNumber: '5566778899', accountName: 'Landlord', amountCents: 10_000, message: 'Rent' })).json()
      .transfer;
    const linked = (
      await kit.payWithStepUp(dana, '/funding-sources', {
        accountName: 'Dana Savings',
        accountNumber: '123123123',
        routeNumber: '021000021',
        accountType: 'savings',
      })
    ).json().fundingSource;
    // Production sends no amounts by SMS: the customer reads them at the other bank.
    const [sms] = await database().query<{ text_body: string }>('SELECT text_body FROM outbox_messages WHERE to_address = $1 ORDER BY sequence DESC LIMIT 1', [
      dana.phone,
    ]);
    expect(sms?.text_body).not.toMatch(/\$0\.\d\d/);

    const listed = JSON.parse((await ops('ach-pending', [])).output);
    expect(listed).toContainEqual(expect.objectContaining({ paymentId: pulled.id, entry: 'debit', amount: '$123.45', traceNumber: null }));

    const text = await writeAchFile('today.ach');
    expect((await stat(path.join(directory, 'today.ach'))).mode & 0o077).toBe(0);
    const parsed = nacha.from(text).data;
    const entries = parsed.batches.flatMap((batch) =>
      batch.entries.map((entry) => ({
        batch: batch.description,
        code: entry.transactionCode,
        account: entry.dfiAccount,
        amount: entry.amount,
        trace: String(entry.traceNumber),
      })),
    );
    expect(entries).toContainEqual({ batch: 'DEPOSIT', code: '27', account: '7788990055', amount: 12_345, trace: await traceOf(pulled.id) });
    expect(entries).toContainEqual({ batch: 'PAYMENT', code: '22', account: '5566778899', amount: 10_000, trace: await traceOf(sent.id) });
    const micro = entries.filter((entry) => entry.batch === 'ACCTVERIFY');
    expect(micro.map((entry) => [entry.code, entry.account])).toEqual([
      ['32', '123123123'],
      ['32', '123123123'],
    ]);
    expect(parsed.batches.map((batch) => batch.serviceClassCode)).toEqual([220, 220, 225]);
    const [microTotal] = await database().query<{ cents: bigint }>(
      'SELECT sum(amount_cents)::bigint AS cents FROM micro_deposits WHERE funding_source_id = $1',
      [linked.id],
    );
    expect(parsed.file.footer).toMatchObject({ totalDebit: 12_345, totalCredit: 10_000 + Number(microTotal?.cents ?? 0n), entryAndAddendaCount: 4 });

    expect((await ops('ach-file', ['--out', 'again.ach', '--reason', 'Second run'])).output).toContain('no file written');
    expect(JSON.parse((await ops('ach-pending', [])).output)).toContainEqual(
      expect.objectContaining({ paymentId: pulled.id, traceNumber: await traceOf(pulled.id) }),
    );
    expect((await ops('ach-file', ['--reason', 'No target'])).exitCode).toBe(2);
  });

  it('applies a returns file once: R01 voids a pending deposit; the same file again changes nothing; an unknown trace is reported', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const pulled = await deposit(dana, 20_000);
    await writeAchFile('returns-test.ach');
    const trace = await traceOf(pulled.id);
    const first = await importReturns([returnedDebit(trace, 20_000n), returnedDebit('999999990000001', 500n)], 'returns-1.ach');
    expect(first.exitCode).toBe(1);
    expect(JSON.parse(first.output).returns).toEqual([
      { traceNumber: trace, returnCode: 'R01', result: 'applied' },
      { traceNumber: '999999990000001', returnCode: 'R01', result: 'unknown_trace' },
    ]);
    expect((await dana.browser.get(`/api/v1/transfers/${pulled.id}`)).json().transfer).toMatchObject({
      status: 'returned',
      statusReason: expect.stringContaining('insufficient funds (R01)'),
    });
    const again = await importReturns([returnedDebit(trace, 20_000n)], 'returns-2.ach');
    expect(JSON.parse(again.output).returns).toEqual([{ traceNumber: trace, returnCode: 'R01', result: 'already_applied' }]);
    expect((await kit.balances(dana)).checking).toEqual({ balanceCents: 0, availableCents: 0 });
    const [audit] = await database().query<{ n: bigint }>("SELECT count(*)::bigint AS n FROM audit_log WHERE action = 'ach.returns_imported'");
    expect(audit?.n).toBeGreaterThanOrEqual(2n);
  });

  it('takes back a deposit returned after it settled, from the returns file too', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const pulled = await deposit(dana, 20_000);
    await writeAchFile('late.ach');
    expect((await ops('ach-settle', [pulled.id, '--reason', 'Settled'])).exitCode).toBe(0);
    const result = await importReturns([returnedDebit(await traceOf(pulled.id), 20_000n, 'R10')], 'late-returns.ach');
    expect(JSON.parse(result.output).returns[0].result).toBe('applied_after_settlement');
    expect((await kit.balances(dana)).checking.balanceCents).toBe(0);
  });

  it('a returned micro-deposit takes its money back to the bank and the link cannot be verified', async () => {
    await ops('ach-file', ['--out', 'before-micro.ach', '--reason', 'Clear the rail']);
    const dana = await kit.customer({ fundCents: 0n });
    const linked = (
      await kit.payWithStepUp(dana, '/funding-sources', { accountName: 'Dana', accountNumber: '123400', routeNumber: '021000021', accountType: 'checking' })
    ).json().fundingSource;
    await writeAchFile('micro.ach');
    const [micro] = await database().query<{ trace_number: string; amount_cents: bigint }>(
      'SELECT e.trace_number, e.amount_cents FROM ach_entries e JOIN micro_deposits m ON m.id = e.micro_deposit_id WHERE m.funding_source_id = $1 ORDER BY e.trace_number LIMIT 1',
      [linked.id],
    );
    if (!micro) throw new Error('no micro-deposit in the file');
    const expenseBefore = (await lookupAccounts(database(), [operatorAccounts.accountVerificationExpense]))[0]?.creditsPostedCents ?? 0n;
    const result = await importReturns([{ ...returnedDebit(micro.trace_number, micro.amount_cents, 'R03'), transactionCode: 21 }], 'micro-returns.ach');
    expect(JSON.parse(result.output).returns[0].result).toBe('applied');
    const expenseAfter = (await lookupAccounts(database(), [operatorAccounts.accountVerificationExpense]))[0]?.creditsPostedCents ?? 0n;
    expect(expenseAfter - expenseBefore).toBe(micro.amount_cents);
    expect((await dana.browser.get('/api/v1/funding-sources')).json().items.find((item: { id: string }) => item.id === linked.id).status).toBe('failed');
  });

  it('refuses a damaged returns file whole, applying nothing', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const pulled = await deposit(dana, 7_000);
    await writeAchFile('damaged-test.ach');
    const result = await importReturns([returnedDebit(await traceOf(pulled.id), 7_000n)], 'damaged.ach', { corruptTotals: true });
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('nothing was applied');
    expect(await statusOf(dana, pulled.id)).toBe('pending');
  });
});
