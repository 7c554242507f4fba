import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { adjustmentFourEyesCents } from '@strongroom/contracts/books.ts';
import type { Config } from '../../config.ts';
import type { StaffActor } from '../../platform/request-actor.ts';
import { addDays, calendarDayIn } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { createTestStaff } from '../../test/staff.ts';
import { testAppSuite } from '../../test/suite.ts';
import { decideAdjustment, ExceptionNotOpenError, requestAdjustment } from './adjustments.ts';
import { closeBooksThrough } from './close.ts';
import type { BooksDependencies } from './dependencies.ts';

/**
 * Issue 35 items 3 and 4 (docs/books.md, "Adjusting entries"): an entry asked for a day is booked on
 * it while it is open; an entry waiting for approval whose day closes meanwhile is refused by the
 * ledger itself, not posted into the closed day; an entry that settles a reconciliation exception
 * resolves it when it posts, and frees it again when rejected.
 */
describeEachDatabase('adjusting entries: the day they are booked on, and the exception they settle', (database) => {
  let config: Config;
  testAppSuite(database, (built) => ({ config } = built), { checkLedger: true });
  let fiona: StaffActor;
  let frank: StaffActor;
  const emails = { fiona: '', frank: '' };
  const deps = (): BooksDependencies => ({ db: database(), config });
  const today = () => calendarDayIn(config.bankTimeZone, new Date());
  const entry = (amountCents: number, extra: { postedOn?: string; exceptionId?: string } = {}) => ({
    debitAccount: 'settlementAch',
    creditAccount: 'reconciliationDifferences',
    amountCents: BigInt(amountCents),
    reason: 'Incoming wire the statement shows and the ledger lacks',
    ...extra,
  });

  beforeAll(async () => {
    const fionaMember = await createTestStaff(database(), config, 'finance');
    const frankMember = await createTestStaff(database(), config, 'finance');
    fiona = { staffId: fionaMember.id, role: 'finance', requestId: 'test-fiona' };
    frank = { staffId: frankMember.id, role: 'finance', requestId: 'test-frank' };
    emails.fiona = fionaMember.email;
    emails.frank = frankMember.email;
  });

  /** An open exception of an imported statement, as the reconciliation writes one. */
  async function openException(amountCents: number): Promise<string> {
    const statementId = randomUUID();
    await database().query(
      `INSERT INTO bank_statements (id, file_sha256, file_name, sender, as_of_date, line_count, matched_count, exception_count, imported_by, content)
       VALUES ($1, $2, 'statement.bai', 'FEDERAL RESERVE', $3::date, 1, 0, 1, 'test', '01,...')`,
      [statementId, randomUUID(), today()],
    );
    const id = randomUUID();
    await database().query(
      `INSERT INTO reconciliation_exceptions (id, kind, statement_id, settlement_account, day, direction, amount_cents, ledger_transfer_id, status)
       VALUES ($1, 'unmatched_ledger_entry', $2, 'settlementAch', $3::date, 'credit', $4, $5, 'open')`,
      [id, statementId, today(), amountCents, randomUUID()],
    );
    return id;
  }

  async function exception(id: string) {
    const [row] = await database().query<{
      status: string;
      resolution: string | null;
      adjustment_id: string | null;
      resolved_by: string | null;
      resolution_reason: string | null;
    }>('SELECT status, resolution, adjustment_id, resolved_by, resolution_reason FROM reconciliation_exceptions WHERE id = $1', [id]);
    return row;
  }

  async function postedOn(transferId: string): Promise<string | undefined> {
    const [row] = await database().query<{ posted_on: string }>(`SELECT to_char(posted_on, 'YYYY-MM-DD') AS posted_on FROM ledger_transfers WHERE id = $1`, [
      transferId,
    ]);
    return row?.posted_on;
  }

  it('an entry asked for an earlier open day is booked on that day; one that asks for none, on the open day', async () => {
    const day = addDays(today(), -5);
    const outcome = await requestAdjustment(deps(), entry(900, { postedOn: day }), fiona);
    expect(outcome).toMatchObject({ kind: 'posted', adjustment: { postedOn: day, status: 'posted' } });
    if (outcome.kind !== 'posted') throw new Error(outcome.kind);
    expect(await postedOn(outcome.adjustment.id)).toBe(day);
    const plain = await requestAdjustment(deps(), entry(901), fiona);
    if (plain.kind !== 'posted') throw new Error(plain.kind);
    expect(await postedOn(plain.adjustment.id)).toBe(today());
  });

  it('an entry posted at once resolves the exception it settles, as adjusted, in the same transaction', async () => {
    const exceptionId = await openException(4_200);
    const outcome = await requestAdjustment(deps(), entry(4_200, { exceptionId }), fiona);
    expect(outcome).toMatchObject({ kind: 'posted', adjustment: { exceptionId } });
    if (outcome.kind !== 'posted') throw new Error(outcome.kind);
    expect(await exception(exceptionId)).toEqual({
      status: 'resolved',
      resolution: 'adjusted',
      adjustment_id: outcome.adjustment.id,
      resolved_by: fiona.staffId,
      resolution_reason: 'Incoming wire the statement shows and the ledger lacks',
    });
    // Resolved, it takes no second entry; nothing of the refused one is written.
    const transfersBefore = await database().query('SELECT id FROM ledger_transfers');
    await expect(requestAdjustment(deps(), entry(4_200, { exceptionId }), frank)).rejects.toBeInstanceOf(ExceptionNotOpenError);
    expect(await database().query('SELECT id FROM ledger_transfers')).toHaveLength(transfersBefore.length);
    expect(await database().query('SELECT id FROM books_adjustments WHERE exception_id = $1', [exceptionId])).toHaveLength(1);
  });

  it('an entry waiting for approval holds its exception; rejected, the exception is free again; approved, it is resolved', async () => {
    const exceptionId = await openException(adjustmentFourEyesCents);
    const asked = await requestAdjustment(deps(), entry(adjustmentFourEyesCents, { exceptionId }), fiona);
    if (asked.kind !== 'awaiting_approval') throw new Error(asked.kind);
    expect(await exception(exceptionId)).toMatchObject({ status: 'open', adjustment_id: asked.adjustment.id });

    const rejected = await decideAdjustment(deps(), asked.adjustment.id, { decision: 'reject', reason: 'Matched by hand instead' }, frank);
    expect(rejected).toMatchObject({ kind: 'rejected', adjustment: { decidedByEmail: emails.frank } });
    expect(await exception(exceptionId)).toMatchObject({ status: 'open', adjustment_id: null });

    const again = await requestAdjustment(deps(), entry(adjustmentFourEyesCents, { exceptionId }), fiona);
    if (again.kind !== 'awaiting_approval') throw new Error(again.kind);
    const approved = await decideAdjustment(deps(), again.adjustment.id, { decision: 'approve', reason: 'Statement line checked' }, frank);
    expect(approved).toMatchObject({
      kind: 'posted',
      adjustment: { requestedBy: fiona.staffId, requestedByEmail: emails.fiona, decidedBy: frank.staffId, decidedByEmail: emails.frank, postedOn: today() },
    });
    expect(await exception(exceptionId)).toMatchObject({
      status: 'resolved',
      resolution: 'adjusted',
      adjustment_id: again.adjustment.id,
      resolved_by: fiona.staffId,
    });
  });

  it('an entry whose day closes while it waits is refused by the ledger at approval: nothing is booked into the closed day', async () => {
    const day = addDays(today(), -2);
    const asked = await requestAdjustment(deps(), entry(250_000, { postedOn: day }), fiona);
    if (asked.kind !== 'awaiting_approval') throw new Error(asked.kind);
    await closeBooksThrough(database(), day, 'end-of-day');

    const approved = await decideAdjustment(deps(), asked.adjustment.id, { decision: 'approve', reason: 'Statement line checked' }, frank);
    expect(approved).toEqual({ kind: 'business_day_closed', day, closedThrough: day });
    expect(await postedOn(asked.adjustment.id)).toBeUndefined();
    const [row] = await database().query<{ status: string }>('SELECT status FROM books_adjustments WHERE id = $1', [asked.adjustment.id]);
    expect(row?.status).toBe('awaiting_approval');
    const [audit] = await database().query<{ actor_id: string; details: Record<string, unknown> }>(
      "SELECT actor_id, details FROM audit_log WHERE action = 'books.adjustment_decision_refused' AND subject = $1",
      [asked.adjustment.id],
    );
    expect(audit).toMatchObject({ actor_id: frank.staffId, details: { refusal: 'business_day_closed', closedThrough: day } });

    // Asked again, the same day is refused before anything is written; the open day takes it.
    expect(await requestAdjustment(deps(), entry(900, { postedOn: day }), fiona)).toEqual({ kind: 'business_day_closed', day, closedThrough: day });
    expect((await decideAdjustment(deps(), asked.adjustment.id, { decision: 'reject', reason: 'Asked again on the open day' }, fiona)).kind).toBe('rejected');
  });

  it('with the books closed through the bank date, the open day after it may be asked for, and no later day', async () => {
    await closeBooksThrough(database(), today(), 'ops-cli');
    const tomorrow = addDays(today(), 1);
    const ahead = await requestAdjustment(deps(), entry(905, { postedOn: tomorrow }), fiona);
    if (ahead.kind !== 'posted') throw new Error(ahead.kind);
    expect(await postedOn(ahead.adjustment.id)).toBe(tomorrow);
    expect(await requestAdjustment(deps(), entry(906, { postedOn: addDays(today(), 2) }), fiona)).toEqual({
      kind: 'invalid',
      field: 'postedOn',
      message: `choose a day on or before the open day (${tomorrow})`,
    });
  });
});
