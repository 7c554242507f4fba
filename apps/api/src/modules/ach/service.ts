import { createHash, randomUUID } from 'node:crypto';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import type { Config } from '../../config.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { decrypt } from '../../platform/crypto.ts';
import { calendarDayIn, nextBusinessDay } from '../../platform/business-calendar.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { returnMicroDeposit } from '../funding-sources/service.ts';
import { recordRailOutcome, type RailActor } from '../payments/service.ts';
import { maxEntriesPerFile, parseNachaReturns, writeNachaFile, type EntryTransactionCode, type NachaBatch, type NachaEntry } from './nacha.ts';
import {
  lockAchFiles,
  filesCreatedOn,
  findAchEntry,
  insertAchEntries,
  insertAchFile,
  nextTraceSequences,
  pendingAchCreditsOn,
  unsentAchEntries,
  type UnsentEntryRow,
} from './repository.ts';

export interface AchDependencies {
  db: Database;
  config: Config;
  liveEvents?: LiveEvents;
  /** What a file's creation and effective dates read as now; absent, the machine's time (db/clock.ts). */
  clock?: Clock;
}

/** A-Z then 0-9: the 37th file of a day has no modifier left. */
const fileIdModifiers = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Serialises file building: two at once would put an entry in both. */
const achFileLockKey = 7_210_019;

/**
 * A file's effective entry date: the first business day after the bank's today (weekends and the
 * Federal Reserve's holidays skipped: platform/business-calendar.ts), as YYMMDD and YYYY-MM-DD.
 */
export function effectiveDateAfter(now: Date, timeZone: string): { yymmdd: string; iso: string } {
  const iso = nextBusinessDay(calendarDayIn(timeZone, now));
  return { yymmdd: iso.slice(2).replaceAll('-', ''), iso };
}

/**
 * An entry's individual identification number (15 characters). A bill payment's is the customer's
 * account number at the biller, which tells the biller whose bill is paid (bill payees of billers
 * paid by ACH are at most 15 characters: bill-payees' service); any other entry's is the first 15
 * characters of its payment's (or micro-deposit's) id, enough for staff to find it.
 */
function individualIdOf(
  encryptionKey: Buffer,
  entry: { payment_id: string | null; micro_deposit_id: string | null; bill_account_encrypted: Buffer | Uint8Array | null },
): string {
  if (entry.bill_account_encrypted) return decrypt(encryptionKey, Buffer.from(entry.bill_account_encrypted)).toString('utf8');
  return (entry.payment_id ?? entry.micro_deposit_id ?? '').replaceAll('-', '').slice(0, 15);
}

function transactionCodeOf(entry: UnsentEntryRow): EntryTransactionCode {
  const savings = entry.account_type === 'savings';
  if (entry.kind === 'deposit') return savings ? 37 : 27;
  return savings ? 32 : 22;
}

export interface AchFileResult {
  fileId: string;
  text: string;
  entryCount: number;
  debitTotalCents: bigint;
  creditTotalCents: bigint;
}

/** A file's batches, in this order, each of one kind of entry; an empty one is left out and the rest numbered from 1. */
const batchesOfFile: readonly { serviceClassCode: NachaBatch['serviceClassCode']; entryDescription: string; kind: UnsentEntryRow['kind'] }[] = [
  { serviceClassCode: 220, entryDescription: 'PAYMENT', kind: 'external' },
  // Bill payments to billers paid by ACH (issue 33): each entry carries the customer's account number at the biller.
  { serviceClassCode: 220, entryDescription: 'BILL PAY', kind: 'bill' },
  { serviceClassCode: 220, entryDescription: 'ACCTVERIFY', kind: 'micro_deposit' },
  { serviceClassCode: 225, entryDescription: 'DEPOSIT', kind: 'deposit' },
];

/** What the ACH files read as now: the injected clock, else the machine's time. */
const nowOf = (dependencies: Pick<AchDependencies, 'clock'>): Date => (dependencies.clock ?? systemClock).now();

/**
 * Writes the NACHA file of everything waiting at the ACH rail that has not gone out yet, and
 * records each entry with its trace number, in one transaction: an entry is in exactly one file,
 * and a return names it by that trace number. Null when nothing waits.
 */
export async function buildAchFile(dependencies: AchDependencies, createdBy: string, now = nowOf(dependencies)): Promise<AchFileResult | null> {
  const { db, config } = dependencies;
  const bankRouting = businessConstants.bankRoutingNumber;
  const result = await db.transaction(async (tx) => {
    await lockAchFiles(tx, achFileLockKey);
    const unsent = await unsentAchEntries(tx, maxEntriesPerFile);
    if (unsent.length === 0) return null;
    const today = now.toISOString().slice(0, 10);
    const modifier = fileIdModifiers[await filesCreatedOn(tx, today)];
    if (!modifier) throw new Error(`already ${fileIdModifiers.length} ACH files today: the NACHA file id modifier has run out`);
    const sequences = await nextTraceSequences(tx, unsent.length);
    const entries = unsent.map((row, index): NachaEntry & { row: UnsentEntryRow } => {
      const accountNumber =
        row.account_number ??
        (row.account_number_encrypted ? decrypt(config.secrets.encryptionKey, Buffer.from(row.account_number_encrypted)).toString('utf8') : '');
      if (!accountNumber) throw new Error(`ACH entry for ${row.payment_id ?? row.micro_deposit_id} has no account number`);
      const sequence = sequences[index];
      if (sequence === undefined) throw new Error('fewer trace numbers than entries');
      return {
        row,
        transactionCode: transactionCodeOf(row),
        routingNumber: row.route_number,
        accountNumber,
        amountCents: row.amount_cents,
        individualId: individualIdOf(config.secrets.encryptionKey, row),
        individualName: row.name,
        traceNumber: `${bankRouting.slice(0, 8)}${sequence.toString().padStart(7, '0')}`,
      };
    });
    const effective = effectiveDateAfter(now, config.bankTimeZone);
    const batches = batchesOfFile
      .map(({ serviceClassCode, entryDescription, kind }): NachaBatch => ({
        serviceClassCode,
        companyName: config.bankName,
        companyId: config.ach.companyId,
        entryDescription,
        effectiveDate: effective.yymmdd,
        originatingDfi: bankRouting.slice(0, 8),
        batchNumber: 0,
        entries: entries.filter((entry) => entry.row.kind === kind),
      }))
      .filter((candidate) => candidate.entries.length > 0)
      .map((candidate, index) => ({ ...candidate, batchNumber: index + 1 }));
    const text = writeNachaFile({
      immediateDestination: config.ach.destinationRoutingNumber,
      immediateDestinationName: config.ach.destinationName,
      immediateOrigin: bankRouting,
      immediateOriginName: config.bankName,
      createdAt: now,
      fileIdModifier: modifier,
      batches,
    });
    const debitTotalCents = entries
      .filter((entry) => entry.transactionCode === 27 || entry.transactionCode === 37)
      .reduce((sum, entry) => sum + entry.amountCents, 0n);
    const creditTotalCents = entries.reduce((sum, entry) => sum + entry.amountCents, 0n) - debitTotalCents;
    const fileId = randomUUID();
    await insertAchFile(tx, {
      id: fileId,
      fileIdModifier: modifier,
      effectiveDate: effective.iso,
      entryCount: entries.length,
      debitTotalCents,
      creditTotalCents,
      createdBy,
      createdAt: now,
    });
    await insertAchEntries(
      tx,
      fileId,
      entries.map((entry) => ({
        traceNumber: entry.traceNumber,
        paymentId: entry.row.payment_id,
        microDepositId: entry.row.micro_deposit_id,
        transactionCode: entry.transactionCode,
        amountCents: entry.amountCents,
      })),
    );
    return { fileId, text, entryCount: entries.length, debitTotalCents, creditTotalCents };
  });
  if (result) {
    await recordAudit(db, {
      actorType: 'staff',
      actorId: createdBy,
      action: 'ach.file_written',
      subject: result.fileId,
      outcome: 'success',
      details: { entries: result.entryCount, debitCents: result.debitTotalCents.toString(), creditCents: result.creditTotalCents.toString() },
    });
  }
  return result;
}

/** An entry not yet sent gets a provisional trace number in an export: 9 then six digits, apart from the sequence's. */
const provisionalTraceBase = 9_000_000;

/**
 * The NACHA file of the customers' ACH credits expected to settle on `day` (YYYY-MM-DD, UTC), for
 * staff to download. A pure export: it records nothing (no file, no trace number), so downloading
 * it twice is harmless; entries that went out in a file keep their trace number, the others get a
 * provisional one. `buildAchFile` (the `ach-file` command) stays the one way entries are sent.
 * Null for a day with no entries (a NACHA file holds at least one).
 */
export async function exportAchCreditsOf(dependencies: Pick<AchDependencies, 'db' | 'config' | 'clock'>, day: string, now = nowOf(dependencies)) {
  const { db, config } = dependencies;
  const bankRouting = businessConstants.bankRoutingNumber;
  const rows = await pendingAchCreditsOn(db, day, maxEntriesPerFile);
  if (rows.length === 0) return null;
  const entries = rows.map((row, index): NachaEntry => ({
    transactionCode: 22,
    routingNumber: row.route_number,
    accountNumber: row.account_number ?? '',
    amountCents: row.amount_cents,
    individualId: individualIdOf(config.secrets.encryptionKey, { ...row, micro_deposit_id: null }),
    individualName: row.name,
    traceNumber: row.trace_number ?? `${bankRouting.slice(0, 8)}${(provisionalTraceBase + index + 1).toString().padStart(7, '0')}`,
  }));
  const batches: NachaBatch[] = [
    {
      serviceClassCode: 220,
      companyName: config.bankName,
      companyId: config.ach.companyId,
      entryDescription: 'PAYMENT',
      effectiveDate: day.slice(2).replaceAll('-', ''),
      originatingDfi: bankRouting.slice(0, 8),
      batchNumber: 1,
      entries,
    },
  ];
  const text = writeNachaFile({
    immediateDestination: config.ach.destinationRoutingNumber,
    immediateDestinationName: config.ach.destinationName,
    immediateOrigin: bankRouting,
    immediateOriginName: config.bankName,
    createdAt: now,
    fileIdModifier: 'A',
    batches,
  });
  return { text, entryCount: entries.length, creditTotalCents: entries.reduce((sum, entry) => sum + entry.amountCents, 0n) };
}

/**
 * A staff member's download of the day's credits (`GET /staff/payments/ach-file`), audited either way,
 * since the file holds account numbers; a day with no credits is not found.
 */
export async function downloadAchCredits(
  dependencies: Pick<AchDependencies, 'db' | 'config' | 'clock'>,
  actor: StaffActor,
  day: string,
  reason: string | undefined,
) {
  const file = await exportAchCreditsOf(dependencies, day);
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'ach.file_exported',
      subject: day,
      outcome: file ? 'success' : 'failure',
      details: { entries: file?.entryCount ?? 0, creditCents: (file?.creditTotalCents ?? 0n).toString(), reason: reason ?? null },
    }),
  );
  if (!file) throw new AppError('not_found', `No ACH credits are expected to settle on ${day}`);
  return file;
}

export type ReturnApplication = {
  traceNumber: string;
  returnCode: string;
  result: 'applied' | 'applied_after_settlement' | 'already_applied' | 'unknown_trace' | 'not_returnable';
};

/**
 * Applies a returns file from the ACH operator: each returned entry, found by its original trace
 * number, is returned exactly once (a second import of the same file changes nothing). The file
 * is checked whole before anything is applied.
 */
export async function applyAchReturns(dependencies: AchDependencies, text: string, actor: RailActor): Promise<ReturnApplication[]> {
  const returns = parseNachaReturns(text);
  const fileHash = createHash('sha256').update(text).digest('hex');
  const applied: ReturnApplication[] = [];
  for (const item of returns) {
    const entry = await findAchEntry(dependencies.db, item.originalTraceNumber);
    const base = { traceNumber: item.originalTraceNumber, returnCode: item.returnCode };
    if (!entry || entry.amount_cents !== item.amountCents) {
      applied.push({ ...base, result: 'unknown_trace' });
      continue;
    }
    if (entry.micro_deposit_id) {
      applied.push({ ...base, result: (await returnMicroDeposit(dependencies, entry.micro_deposit_id, item.returnCode)) ? 'applied' : 'already_applied' });
      continue;
    }
    const result = await recordRailOutcome(dependencies, entry.payment_id ?? '', { kind: 'returned', code: item.returnCode }, actor);
    applied.push({
      ...base,
      result:
        result === 'returned'
          ? 'applied'
          : result === 'returned_after_settlement'
            ? 'applied_after_settlement'
            : result === 'already_decided'
              ? 'already_applied'
              : 'not_returnable',
    });
  }
  await recordAudit(dependencies.db, {
    actorType: actor.actorType,
    actorId: actor.actorId,
    action: 'ach.returns_imported',
    outcome: 'success',
    details: {
      fileSha256: fileHash,
      returns: returns.length,
      applied: applied.filter((item) => item.result.startsWith('applied')).length,
      ...(actor.reason ? { reason: actor.reason } : {}),
    },
  });
  return applied;
}
