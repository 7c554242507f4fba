import type { SettlementAccountKey } from './settlement-accounts.ts';

/**
 * Matching a statement's lines to the ledger's settlement entries (docs/books.md, "Reconciliation"),
 * as a pure function of both, so the rules read in one place. Directions are the bank account's:
 * 'credit' is money into the bank's account at the settlement bank (the ledger debits its
 * settlement account), 'debit' money out.
 */
export type Direction = 'credit' | 'debit';

export interface ExpectedEntry {
  transferId: string;
  settlementAccount: SettlementAccountKey;
  direction: Direction;
  amountCents: bigint;
  postedOn: string;
  /** Booked in this statement's window; otherwise an earlier entry still waiting (an open unmatched_ledger_entry). */
  inWindow: boolean;
}

export interface LineToMatch {
  settlementAccount: SettlementAccountKey;
  direction: Direction;
  amountCents: bigint;
  customerReference: string | null;
  bankReference: string | null;
}

export type MatchMethod = 'reference' | 'trace_number' | 'amount';

export interface LineMatch {
  lineIndex: number;
  entry: ExpectedEntry;
  method: MatchMethod;
  /** Found by its reference, but the amounts differ. */
  amountMismatch: boolean;
}

export interface MatchResult {
  matches: LineMatch[];
  unmatchedLineIndexes: number[];
  /** Entries of the window no line matched. */
  unmatchedEntries: ExpectedEntry[];
}

/** A customer reference that names a ledger transfer: its uuid, with or without dashes. */
export function transferIdOfReference(reference: string | null): string | null {
  const hex = reference?.replaceAll('-', '').toLowerCase() ?? '';
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An ACH trace number: the originating bank's routing number (8 digits) and a sequence (7). */
export function isTraceNumber(reference: string | null): reference is string {
  return reference !== null && /^\d{15}$/.test(reference);
}

/** The key an amount match looks entries up by: account, direction and amount. */
function amountKey(item: { settlementAccount: SettlementAccountKey; direction: Direction; amountCents: bigint }): string {
  return `${item.settlementAccount}|${item.direction}|${item.amountCents}`;
}

/**
 * Each line, first by reference (a) the transfer id in its customer reference, (b) an ACH trace
 * number the bank's files gave a payment's settlement transfer; then, for the lines left, (c) the
 * same account, direction and amount among the window's entries still unmatched, earliest first.
 * References go first for every line, so a line matched by amount never takes an entry another
 * line names. A transfer is matched once at most. Entries are looked up through maps, so a day of
 * many thousand movements matches in one pass over each side.
 */
export function matchLines(lines: readonly LineToMatch[], entries: readonly ExpectedEntry[], transferOfTrace: ReadonlyMap<string, string>): MatchResult {
  const used = new Set<string>();
  const matches: LineMatch[] = [];
  const pending: number[] = [];
  const byTransfer = new Map<string, ExpectedEntry>();
  for (const entry of entries) if (!byTransfer.has(entry.transferId)) byTransfer.set(entry.transferId, entry);
  const find = (line: LineToMatch, transferId: string) => {
    const entry = byTransfer.get(transferId);
    const fits = entry && entry.settlementAccount === line.settlementAccount && entry.direction === line.direction && !used.has(entry.transferId);
    return fits ? entry : undefined;
  };
  lines.forEach((line, lineIndex) => {
    const byId = transferIdOfReference(line.customerReference);
    const referenced = byId ? find(line, byId) : undefined;
    const trace = [line.customerReference, line.bankReference].find((reference) => isTraceNumber(reference) && transferOfTrace.has(reference));
    const traced = !referenced && trace ? find(line, transferOfTrace.get(trace) ?? '') : undefined;
    const entry = referenced ?? traced;
    if (!entry) {
      pending.push(lineIndex);
      return;
    }
    used.add(entry.transferId);
    matches.push({ lineIndex, entry, method: referenced ? 'reference' : 'trace_number', amountMismatch: entry.amountCents !== line.amountCents });
  });
  // The window's entries still unmatched, by account, direction and amount, each list earliest first (the entries' order).
  const byAmount = new Map<string, ExpectedEntry[]>();
  for (const entry of entries) {
    if (!entry.inWindow || used.has(entry.transferId)) continue;
    const key = amountKey(entry);
    const list = byAmount.get(key);
    if (list) list.push(entry);
    else byAmount.set(key, [entry]);
  }
  const unmatchedLineIndexes: number[] = [];
  for (const lineIndex of pending) {
    const line = lines[lineIndex];
    const candidates = line ? byAmount.get(amountKey(line)) : undefined;
    let entry = candidates?.shift();
    while (entry && used.has(entry.transferId)) entry = candidates?.shift();
    if (!entry) {
      unmatchedLineIndexes.push(lineIndex);
      continue;
    }
    used.add(entry.transferId);
    matches.push({ lineIndex, entry, method: 'amount', amountMismatch: false });
  }
  matches.sort((first, second) => first.lineIndex - second.lineIndex);
  return { matches, unmatchedLineIndexes, unmatchedEntries: entries.filter((entry) => entry.inWindow && !used.has(entry.transferId)) };
}
