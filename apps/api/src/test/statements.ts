import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Database } from '../db/database.ts';
import { ledgers, operatorAccounts, transferCodes } from '../ledger/codes.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';

/** A completed payment in the past: the ledger dates transfers with now(), so tests write history directly. */
export interface PastEntry {
  /** An ISO instant. */
  at: string;
  direction: 'in' | 'out';
  amountCents: bigint;
  message: string;
}

/**
 * Writes past payments the way the ledger would have (a posted transfer, its payment, the
 * counters), in the order given: the sequence follows that order, whatever the dates, so a test
 * can also write dates slightly out of order, as concurrent ledger transactions may. The suite's
 * checkLedger afterwards proves the counters match the transfers.
 */
export async function writePastEntries(db: Database, customerId: string, accountId: string, entries: readonly PastEntry[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [account] = await tx.query<{ ledger_account_id: string }>(
      `SELECT a.ledger_account_id FROM customer_accounts a JOIN ledger_accounts l ON l.id = a.ledger_account_id WHERE a.id = $1 AND a.customer_id = $2 FOR UPDATE OF l`,
      [accountId, customerId],
    );
    if (!account) throw new Error(`account ${accountId} is not customer ${customerId}'s`);
    // Every deposit names the account at another bank it came from.
    const sourceId = randomUUID();
    await tx.query(
      `INSERT INTO funding_sources (id, customer_id, account_name, account_number_encrypted, account_key, last4, route_number, account_type, status, verified_at)
       VALUES ($1, $2, 'Employer', '\\x00', $3, '0055', '011000015', 'checking', 'verified', now())`,
      [sourceId, customerId, randomBytes(32)],
    );
    const ids: string[] = [];
    let inCents = 0n;
    let outCents = 0n;
    for (const entry of entries) {
      const id = randomUUID();
      ids.push(id);
      const incoming = entry.direction === 'in';
      await tx.query(
        `INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name, message, rail, created_at, updated_at, funding_source_id)
         VALUES ($1, $2, $3, 'completed', $4, $5, $6, $7, $8, 'ach', $9, $9, $10)`,
        [
          id,
          customerId,
          incoming ? 'deposit' : 'external',
          incoming ? null : accountId,
          incoming ? accountId : null,
          entry.amountCents.toString(),
          incoming ? 'Employer' : 'Payee',
          entry.message,
          entry.at,
          incoming ? sourceId : null,
        ],
      );
      await tx.query(
        `INSERT INTO ledger_transfers (id, debit_account_id, credit_account_id, amount, ledger, code, flags, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 0, $7)`,
        [
          id,
          incoming ? operatorAccounts.settlementAch : account.ledger_account_id,
          incoming ? account.ledger_account_id : operatorAccounts.settlementAch,
          entry.amountCents.toString(),
          ledgers.usd,
          incoming ? transferCodes.deposit : transferCodes.externalTransfer,
          entry.at,
        ],
      );
      if (incoming) inCents += entry.amountCents;
      else outCents += entry.amountCents;
    }
    await tx.query(`UPDATE ledger_accounts SET credits_posted = credits_posted + $2, debits_posted = debits_posted + $3 WHERE id = $1`, [
      account.ledger_account_id,
      inCents.toString(),
      outCents.toString(),
    ]);
    await tx.query(`UPDATE ledger_accounts SET debits_posted = debits_posted + $2, credits_posted = credits_posted + $3 WHERE id = $1`, [
      operatorAccounts.settlementAch,
      inCents.toString(),
      outCents.toString(),
    ]);
    return ids;
  });
}

/** The date today in the bank's time zone, YYYY-MM-DD. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

export function firstOfMonth(date: string): string {
  return `${date.slice(0, 8)}01`;
}

/** Parses the CSV this module writes (RFC 4180, CRLF); enough for the tests, not a general parser. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += character;
  }
  expect(field, 'the CSV ends with a line break').toBe('');
  return rows;
}

/** Whether a command-line tool is on PATH. In CI a missing tool fails the test instead of skipping it. */
export function toolMissing(name: string): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
  if (found || process.env.CI === 'true') return false;
  console.warn(`${name} is not installed: its statement check is skipped (apt-get install ${toolPackages[name] ?? name}; CI installs it)`);
  return true;
}

const toolPackages: Record<string, string> = { ofxdump: 'ofx', hledger: 'hledger', pdftotext: 'poppler-utils' };

export function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function inTemporaryDirectory<T>(work: (directory: string) => T): T {
  const directory = mkdtempSync(path.join(tmpdir(), 'strongroom-statement-'));
  try {
    return work(directory);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** LibOFX's dump: it prints what it could parse even on errors, so callers check the status and stderr. */
export function ofxdump(ofx: string): { status: number | null; stdout: string; stderr: string } {
  return inTemporaryDirectory((directory) => {
    const file = path.join(directory, 'statement.ofx');
    writeFileSync(file, ofx);
    const result = spawnSync('ofxdump', [file], { encoding: 'utf8' });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  });
}

export const hledgerRulesPath = fileURLToPath(new URL('../modules/statements/hledger/strongroom.csv.rules', import.meta.url));

/**
 * The bank account's balance as hledger computes it from the CSV and the repository's rules, after
 * an opening-balance entry the day before the statement starts. hledger does not check balance
 * assertions while it reads CSV, so the CSV is printed as a journal first and that is read back:
 * every line's balance column is then checked as an assertion, and a wrong one fails the command.
 */
export function hledgerBalanceCents(csv: string, openingCents: bigint, from: string): bigint {
  return inTemporaryDirectory((directory) => {
    const dayBefore = new Date(Date.parse(`${from}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const opening = path.join(directory, 'opening.journal');
    const statement = path.join(directory, 'statement.csv');
    const combined = path.join(directory, 'combined.journal');
    writeFileSync(opening, `${dayBefore} Opening balance\n    assets:bank:strongroom  $${formatMoney(openingCents, 'decimal')}\n    equity:opening balances\n`);
    writeFileSync(statement, csv);
    writeFileSync(combined, run('hledger', ['-f', opening, '-f', statement, '--rules-file', hledgerRulesPath, 'print']));
    const output = run('hledger', ['-f', combined, 'balance', '^assets:bank:strongroom$', '--no-total', '-O', 'csv']);
    const [, row] = parseCsvLines(output);
    expect(row?.[0]).toBe('assets:bank:strongroom');
    const amount = (row?.[1] ?? '').replace('$', '');
    expect(amount, `hledger's balance: ${output}`).toMatch(/^-?\d+(\.\d{2})?$/);
    return decimalToCents(amount);
  });
}

function parseCsvLines(text: string): string[][] {
  return text
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(',').map((field) => field.replace(/^"|"$/g, '')));
}

function decimalToCents(text: string): bigint {
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0') || '0');
  return text.startsWith('-') ? -cents : cents;
}

/** The PDF's text as Debian's pdftotext reads it, in reading order. */
export function pdfText(pdf: Buffer): string {
  return inTemporaryDirectory((directory) => {
    const file = path.join(directory, 'statement.pdf');
    writeFileSync(file, pdf);
    return run('pdftotext', ['-layout', file, '-']);
  });
}
