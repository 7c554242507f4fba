import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { BankStatement, ReconciliationException } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import { operatorAccounts } from '../../ledger/codes.ts';
import { calendarDayIn, isBusinessDay, nextBusinessDay } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import type { TestBrowser } from '../../test/client.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { parseBai2, writeBai2, type Bai2Detail } from './bai2.ts';
import { transferIdOfReference } from './matching.ts';
import { sandboxStatement, sandboxStatementPath } from './simulator.ts';
import { settlementBankAccounts } from './settlement-accounts.ts';

/**
 * Issue 35 item 4: the settlement bank's statement matched to the ledger. The sandbox's settlement
 * bank sends a statement after each business day that matches entirely; an edited copy of one
 * lands each kind of exception, which finance staff resolve by hand or with an adjusting entry.
 */
const timeZone = 'America/New_York';
/** The first business day whose statement covers today: today's settlement entries are booked on it or before. */
function statementDayOfToday(): string {
  const today = calendarDayIn(timeZone, new Date());
  return isBusinessDay(today) ? today : nextBusinessDay(today);
}
const achAccount = settlementBankAccounts[0];
/** A statement of the ACH settlement account as of `asOfDate` with these details, its totals computed by the writer. */
const statementOf = (asOfDate: string, details: Bai2Detail[], fileId = '1') =>
  writeBai2({
    sender: '011000015',
    receiver: '123456780',
    createdAt: { date: asOfDate, time: '2359' },
    fileId,
    groups: [
      {
        originator: '011000015',
        ultimateReceiver: '123456780',
        asOfDate,
        currency: 'USD',
        accounts: [{ accountNumber: achAccount?.accountNumber ?? '', currency: 'USD', summaries: [], details }],
      },
    ],
  });

describeEachDatabase('reconciliation: the sandbox settlement bank', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });

  it("imports each business day's statement after end of day, every settlement entry matched", async () => {
    const ana = await kit.customer();
    const deposit = await kit.pay(ana, '/deposits', {
      accountId: ana.checking.id,
      fundingSourceId: ana.fundingSourceId,
      amountCents: 12_345,
      reason: 'From my other bank',
    });
    expect(deposit.statusCode, deposit.body).toBe(201);
    const paid = await kit.payOtherBank(ana, { toAccountNumber: '123456789', accountName: 'Ada Lovelace', amountCents: 2_500, message: 'Rent' });
    expect(paid.statusCode, paid.body).toBe(201);
    await kit.runJobs();
    const day = statementDayOfToday();
    const run = await runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'end-of-day', ['--through', day]);
    expect(run.exitCode, run.output).toBe(0);

    const [statement] = await database().query<{
      id: string;
      imported_by: string;
      line_count: number;
      matched_count: number;
      exception_count: number;
      content: string;
    }>(`SELECT id, imported_by, line_count, matched_count, exception_count, content FROM bank_statements WHERE as_of_date = $1::date`, [day]);
    expect(statement).toMatchObject({ imported_by: 'rail-simulator', exception_count: 0 });
    // The deposit came in, the payment went out: both on the ACH settlement account, both matched by their transfer id.
    const accounts = parseBai2(statement?.content ?? '').groups[0]?.accounts ?? [];
    const details = accounts.flatMap((account) => account.details);
    // Each account's closing ledger balance (015) is its opening (010) plus its credits (100) less its debits (400), which its details add up to.
    for (const account of accounts) {
      const summary = (typeCode: string) => account.summaries.find((item) => item.typeCode === typeCode)?.amountCents ?? 0n;
      const total = (from: number, to: number) =>
        account.details
          .filter((detail) => Number(detail.typeCode) >= from && Number(detail.typeCode) <= to)
          .reduce((sum, detail) => sum + detail.amountCents, 0n);
      expect([summary('100'), summary('400')]).toEqual([total(100, 399), total(400, 699)]);
      expect(summary('015')).toBe(summary('010') + summary('100') - summary('400'));
    }
    expect(details.map((detail) => [detail.typeCode, detail.amountCents])).toEqual(
      expect.arrayContaining([
        ['165', 12_345n],
        ['455', 2_500n],
      ]),
    );
    expect(statement?.line_count).toBe(details.length);
    expect(statement?.matched_count).toBe(details.length);
    const methods = await database().query<{ match_method: string; transfer_id: string }>(
      'SELECT match_method, matched_transfer_id AS transfer_id FROM bank_statement_lines WHERE statement_id = $1',
      [statement?.id],
    );
    expect(methods.map((line) => line.match_method)).toEqual(details.map(() => 'reference'));
    expect(methods.map((line) => line.transfer_id).sort()).toEqual(details.map((detail) => transferIdOfReference(detail.customerReference)).sort());
    expect(await database().query('SELECT id FROM reconciliation_exceptions')).toEqual([]);
    // The settlement bank's file is kept under the data directory, as sent.
    expect(await readFile(sandboxStatementPath(config, day), 'utf8')).toBe(statement?.content);
    const audited = await database().query<{ actor_type: string; actor_id: string }>(
      `SELECT actor_type, actor_id FROM audit_log WHERE action = 'reconciliation.statement_imported' AND subject = $1`,
      [statement?.id],
    );
    expect(audited).toEqual([{ actor_type: 'system', actor_id: 'rail-simulator' }]);
  });

  it("matches a line by the ACH trace number the bank's NACHA file gave the payment", async () => {
    const dee = await kit.customer();
    const deposit = await kit.pay(dee, '/deposits', {
      accountId: dee.checking.id,
      fundingSourceId: dee.fundingSourceId,
      amountCents: 7_777,
      reason: 'From my other bank',
    });
    expect(deposit.statusCode, deposit.body).toBe(201);
    const context = { database: async () => database(), config, liveEvents: app.services.liveEvents };
    const sent = await runOpsCommand(context, 'ach-file', ['--out', path.join(config.dataDirectory, 'ach-file.txt'), '--reason', 'Send the day file']);
    expect(sent.exitCode, sent.output).toBe(0);
    await kit.runJobs();
    const [entry] = await database().query<{ trace_number: string; posted_on: string }>(
      `SELECT e.trace_number, to_char(t.posted_on, 'YYYY-MM-DD') AS posted_on
         FROM ach_entries e JOIN payments p ON p.id = e.payment_id
         JOIN pending_transfer_states s ON s.pending_id = p.id JOIN ledger_transfers t ON t.id = s.resolved_by_id
        WHERE p.customer_id = $1`,
      [dee.id],
    );
    if (!entry) throw new Error('the deposit left in no NACHA file, or did not settle');
    // The statement of the business day the settled deposit is booked in (after the days end of day closed above).
    const day = isBusinessDay(entry.posted_on) ? entry.posted_on : nextBusinessDay(entry.posted_on);
    const file = statementOf(day, [
      { typeCode: '455', amountCents: 7_777n, fundsType: '0', bankReference: null, customerReference: null, text: 'wrong way' },
      { typeCode: '165', amountCents: 7_777n, fundsType: '1', bankReference: 'FED1', customerReference: entry.trace_number, text: 'ACH credit' },
    ]);
    const outcome = await runOpsCommand({ ...context, workingDirectory: config.dataDirectory }, 'reconcile', [await writeTemporary(config, file)]);
    expect(outcome.exitCode, outcome.output).toBe(0);
    const printed = JSON.parse(outcome.output) as { statement: BankStatement; exceptions: ReconciliationException[] };
    // The outgoing line of the same amount is not the deposit: it waits as a line the ledger lacks.
    // Imported by the command line: no staff member, so no email.
    expect(printed.statement).toMatchObject({ matchedCount: 1, exceptionCount: 1, importedBy: 'ops-cli', importedByEmail: null });
    expect(printed.exceptions.map((exception) => [exception.kind, exception.direction])).toEqual([['unmatched_statement_line', 'debit']]);
    const [line] = await database().query<{ match_method: string }>(`SELECT match_method FROM bank_statement_lines WHERE customer_reference = $1`, [
      entry.trace_number,
    ]);
    expect(line?.match_method).toBe('trace_number');
    // Without --reason the command line says where the import came from; with one, the operator's words are kept.
    const [cliAudit] = await database().query<{ reason: string }>(
      `SELECT details->>'reason' AS reason FROM audit_log WHERE action = 'reconciliation.statement_imported' AND subject = $1`,
      [printed.statement.id],
    );
    expect(cliAudit?.reason).toBe("the settlement bank's statement, imported with the ops command line");
    const again = await runOpsCommand({ ...context, workingDirectory: config.dataDirectory }, 'reconcile', [
      'statement.bai2',
      '--reason',
      'Resent by the bank',
    ]);
    expect(again.exitCode).toBe(1);
    expect(again.output).toMatch(/was imported before/);
  });
});

async function writeTemporary(config: Config, content: string): Promise<string> {
  await writeFile(path.join(config.dataDirectory, 'statement.bai2'), content);
  return 'statement.bai2';
}

interface ExceptionList {
  items: ReconciliationException[];
  nextCursor: string | null;
}

describeEachDatabase('reconciliation: an edited statement and the exceptions queue', (database) => {
  let config: Config;
  let finance: TestBrowser;
  let financeMember: { id: string; email: string };
  let otherFinance: TestBrowser;
  const kit = paymentSuite(
    database,
    async (built) => {
      ({ config } = built);
      ({ browser: finance, member: financeMember } = await staffBrowser(built.app, database(), built.config, 'finance'));
      otherFinance = (await staffBrowser(built.app, database(), built.config, 'finance')).browser;
    },
    { environment: { RAIL_SPEED: 'instant' } },
  );
  const day = statementDayOfToday();
  const nextDay = nextBusinessDay(day);
  const deposit = async (who: PayingCustomer, amountCents: number) => {
    const response = await kit.pay(who, '/deposits', {
      accountId: who.checking.id,
      fundingSourceId: who.fundingSourceId,
      amountCents,
      reason: 'From my other bank',
    });
    expect(response.statusCode, response.body).toBe(201);
  };
  const importFile = (content: string, fileName = 'statement.bai2') =>
    finance.post('/api/v1/staff/reconciliation/statements', { fileName, content, reason: 'Daily statement from the settlement bank' });
  const openExceptions = async () => (await finance.get('/api/v1/staff/reconciliation/exceptions?status=open')).json<ExceptionList>().items;
  const settlementAchBalance = async () => {
    const [row] = await database().query<{ balance: bigint }>('SELECT debits_posted - credits_posted AS balance FROM ledger_accounts WHERE id = $1', [
      operatorAccounts.settlementAch,
    ]);
    return row?.balance ?? 0n;
  };
  let removedTransferId = '';

  it('lands an amount changed, a line added and a line removed as the three kinds of exceptions', async () => {
    const bo = await kit.customer();
    await deposit(bo, 10_000);
    await deposit(bo, 20_000);
    await deposit(bo, 30_000);
    await kit.runJobs();
    const sent = parseBai2(await sandboxStatement(database(), config, day));
    const ach = sent.groups[0]?.accounts.find((account) => account.accountNumber === achAccount?.accountNumber);
    expect(ach?.details.map((detail) => detail.amountCents)).toEqual([10_000n, 20_000n, 30_000n]);
    const [changed, removed, kept] = ach?.details ?? [];
    if (!ach || !changed || !removed || !kept) throw new Error('the statement lacks its three deposits');
    removedTransferId = transferIdOfReference(removed.customerReference) ?? '';
    ach.details = [
      { ...changed, amountCents: changed.amountCents + 150_000n },
      kept,
      { typeCode: '165', amountCents: 4_321n, fundsType: '0', bankReference: 'EXTRA1', customerReference: null, text: 'Unknown credit' },
    ];
    const imported = await importFile(writeBai2(sent), 'edited.bai2');
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().statement).toMatchObject({
      fileName: 'edited.bai2',
      asOfDate: day,
      lineCount: 3,
      matchedCount: 1,
      exceptionCount: 3,
      importedBy: financeMember.id,
      importedByEmail: financeMember.email,
    });

    const open = await openExceptions();
    expect(open.map((exception) => [exception.kind, exception.direction, exception.amountCents]).sort()).toEqual([
      ['amount_mismatch', 'credit', 160_000],
      ['unmatched_ledger_entry', 'credit', 20_000],
      ['unmatched_statement_line', 'credit', 4_321],
    ]);
    const mismatch = open.find((exception) => exception.kind === 'amount_mismatch');
    expect(mismatch).toMatchObject({
      settlementAccount: 'settlementAch',
      statementLine: { amountCents: 160_000 },
      ledgerTransfer: { amountCents: 10_000, description: 'Deposit' },
    });
    expect(open.find((exception) => exception.kind === 'unmatched_ledger_entry')?.ledgerTransfer?.id).toBe(removedTransferId);
    expect(open.find((exception) => exception.kind === 'unmatched_statement_line')?.statementLine).toMatchObject({
      bankReference: 'EXTRA1',
      text: 'Unknown credit',
    });

    // The same file again is refused, and audited.
    const again = await importFile(writeBai2(sent), 'edited-again.bai2');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_imported');
  });

  it('resolves a line the ledger lacks with an adjusting entry that brings the settlement account to what the bank says', async () => {
    const line = (await openExceptions()).find((exception) => exception.kind === 'unmatched_statement_line');
    const before = await settlementAchBalance();
    const resolved = await finance.post(`/api/v1/staff/reconciliation/exceptions/${line?.id}/resolve`, {
      resolution: 'adjusted',
      reason: 'Bank credit confirmed by phone',
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json().exception).toMatchObject({
      status: 'resolved',
      resolution: 'adjusted',
      resolutionReason: 'Bank credit confirmed by phone',
      resolvedBy: financeMember.id,
      resolvedByEmail: financeMember.email,
    });
    expect(resolved.json().exception.adjustmentId).toEqual(expect.any(String));
    expect((await settlementAchBalance()) - before).toBe(4_321n);
    const twice = await finance.post(`/api/v1/staff/reconciliation/exceptions/${line?.id}/resolve`, { resolution: 'adjusted', reason: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('already_resolved');
  });

  it('waits for a second finance member when the adjusting entry is above the threshold, and the exception stays open', async () => {
    const mismatch = (await openExceptions()).find((exception) => exception.kind === 'amount_mismatch');
    const asked = await finance.post(`/api/v1/staff/reconciliation/exceptions/${mismatch?.id}/resolve`, {
      resolution: 'adjusted',
      reason: 'The bank credited more',
    });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().exception).toMatchObject({ status: 'open', adjustmentId: expect.any(String) });
    const adjustment = asked.json().exception.adjustmentId as string;
    const [entry] = await database().query<{ debit_account: string; credit_account: string; amount_cents: bigint; status: string }>(
      'SELECT debit_account, credit_account, amount_cents, status FROM books_adjustments WHERE id = $1',
      [adjustment],
    );
    expect(entry).toEqual({ debit_account: 'settlementAch', credit_account: 'reconciliationDifferences', amount_cents: 150_000n, status: 'awaiting_approval' });
    const meanwhile = await otherFinance.post(`/api/v1/staff/reconciliation/exceptions/${mismatch?.id}/resolve`, { resolution: 'adjusted', reason: 'Me too' });
    expect(meanwhile.statusCode).toBe(409);
  });

  it('resolves a ledger entry the statement lacked when a later statement shows it', async () => {
    const imported = await importFile(
      statementOf(nextDay, [
        { typeCode: '165', amountCents: 20_000n, fundsType: '0', bankReference: null, customerReference: removedTransferId, text: 'Late' },
      ]),
      'late.bai2',
    );
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().statement).toMatchObject({ lineCount: 1, matchedCount: 1, exceptionCount: 0 });
    const [exception] = await database().query<{ status: string; resolution: string; resolution_reason: string }>(
      `SELECT status, resolution, resolution_reason FROM reconciliation_exceptions WHERE ledger_transfer_id = $1 AND kind = 'unmatched_ledger_entry'`,
      [removedTransferId],
    );
    expect(exception).toEqual({ status: 'resolved', resolution: 'matched', resolution_reason: `matched by the statement of ${nextDay}` });
  });

  it('matches by hand a statement line with the ledger entry it is, and refuses a pair that is not one', async () => {
    const cy = await kit.customer();
    await deposit(cy, 40_000);
    await kit.runJobs();
    // A second statement of the day shows nothing new: the new deposit waits; a later one shows 40,000 with no reference.
    expect((await importFile(statementOf(day, [], '2'), 'day-again.bai2')).json().statement).toMatchObject({ exceptionCount: 1 });
    const unreferenced = await importFile(
      statementOf(
        nextDay,
        [
          { typeCode: '165', amountCents: 40_000n, fundsType: '0', bankReference: 'NOREF', customerReference: null, text: null },
          { typeCode: '455', amountCents: 40_000n, fundsType: '0', bankReference: 'NOREF2', customerReference: null, text: null },
        ],
        '2',
      ),
    );
    expect(unreferenced.json().statement).toMatchObject({ exceptionCount: 2 });
    const open = await openExceptions();
    const entry = open.find((exception) => exception.kind === 'unmatched_ledger_entry' && exception.amountCents === 40_000);
    const line = open.find(
      (exception) => exception.kind === 'unmatched_statement_line' && exception.direction === 'credit' && exception.amountCents === 40_000,
    );
    const outgoing = open.find((exception) => exception.kind === 'unmatched_statement_line' && exception.direction === 'debit');
    const mismatch = open.find((exception) => exception.kind === 'amount_mismatch');
    if (!entry || !line || !outgoing || !mismatch) throw new Error('the two sides are not in the queue');

    const twoLines = await finance.post(`/api/v1/staff/reconciliation/exceptions/${line.id}/resolve`, {
      resolution: 'matched',
      matchWith: outgoing.id,
      reason: 'Same money',
    });
    expect(twoLines.statusCode).toBe(400);
    expect(twoLines.json().error.fields.matchWith).toBe('a match pairs a statement line with a ledger entry');
    const notTheSame = await finance.post(`/api/v1/staff/reconciliation/exceptions/${outgoing.id}/resolve`, {
      resolution: 'matched',
      matchWith: entry.id,
      reason: 'Same money',
    });
    expect(notTheSame.json().error.fields.matchWith).toBe('the two sides of a match have the same account, direction and amount');
    // The mismatch's adjusting entry awaits its approval: it cannot be matched meanwhile.
    const awaiting = await finance.post(`/api/v1/staff/reconciliation/exceptions/${entry.id}/resolve`, {
      resolution: 'matched',
      matchWith: mismatch.id,
      reason: 'Same money',
    });
    expect(awaiting.json().error.fields.matchWith).toBe('choose another open exception to match this one with');

    const matched = await finance.post(`/api/v1/staff/reconciliation/exceptions/${line.id}/resolve`, {
      resolution: 'matched',
      matchWith: entry.id,
      reason: 'Same deposit, no reference',
    });
    expect(matched.statusCode, matched.body).toBe(200);
    expect(matched.json().exception).toMatchObject({ status: 'resolved', resolution: 'matched', matchedExceptionId: entry.id });
    const other = (await finance.get(`/api/v1/staff/reconciliation/exceptions/${entry.id}`)).json().exception;
    expect(other).toMatchObject({
      status: 'resolved',
      resolution: 'matched',
      matchedExceptionId: line.id,
      resolutionReason: 'Same deposit, no reference',
      resolvedByEmail: financeMember.email,
    });
    const [matchedLine] = await database().query<{ matched_transfer_id: string; match_method: string }>(
      `SELECT l.matched_transfer_id, l.match_method FROM bank_statement_lines l JOIN reconciliation_exceptions x ON x.statement_line_id = l.id WHERE x.id = $1`,
      [line.id],
    );
    expect(matchedLine).toEqual({ matched_transfer_id: entry.ledgerTransfer?.id, match_method: 'by_hand' });
    const audited = await database().query(`SELECT 1 FROM audit_log WHERE action = 'reconciliation.exception_matched' AND subject = $1`, [line.id]);
    expect(audited).toHaveLength(1);
  });
});

describe('reconciliation: the correction an exception needs', () => {
  it('is computed from the bank side', async () => {
    const { settlementCorrectionCents } = await import('./exceptions.ts');
    const base = { line_amount_cents: null, transfer_amount_cents: null };
    expect(settlementCorrectionCents({ ...base, kind: 'unmatched_statement_line', direction: 'credit', amount_cents: 500n })).toBe(500n);
    expect(settlementCorrectionCents({ ...base, kind: 'unmatched_statement_line', direction: 'debit', amount_cents: 500n })).toBe(-500n);
    expect(settlementCorrectionCents({ ...base, kind: 'unmatched_ledger_entry', direction: 'credit', amount_cents: 500n })).toBe(-500n);
    expect(settlementCorrectionCents({ ...base, kind: 'unmatched_ledger_entry', direction: 'debit', amount_cents: 500n })).toBe(500n);
    expect(
      settlementCorrectionCents({ kind: 'amount_mismatch', direction: 'debit', amount_cents: 700n, line_amount_cents: 700n, transfer_amount_cents: 500n }),
    ).toBe(-200n);
    expect(
      settlementCorrectionCents({ kind: 'amount_mismatch', direction: 'credit', amount_cents: 400n, line_amount_cents: 400n, transfer_amount_cents: 500n }),
    ).toBe(-100n);
  });
});
