import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { transferCodes } from '../../ledger/codes.ts';
import { addDays, previousBusinessDay } from '../../platform/business-calendar.ts';
import type { ReconciliationDependencies } from './dependencies.ts';
import { writeBai2, type Bai2Account } from './bai2.ts';
import { transferCodeDescription } from './exceptions.ts';
import { settlementEntriesOf, settlementTransfersBooked } from './repository.ts';
import { importStatement } from './service.ts';
import { settlementBankAccounts } from './settlement-accounts.ts';

/**
 * The sandbox's settlement bank (docs/books.md, "Reconciliation"): after each business day it
 * sends the BAI2 statement of the bank's settlement accounts, with one detail per settlement entry
 * the ledger booked that day (its transfer id as the customer reference), and the reconciliation
 * imports it, so the loop closes without a bank. In normal operation it matches entirely.
 */

/** Where the sandbox keeps each statement it sends, under the data directory. */
export function sandboxStatementPath(config: Pick<Config, 'dataDirectory'>, day: string): string {
  return path.join(config.dataDirectory, 'rail', 'bai2', `${day}.bai2`);
}

/** Each settlement account's balance from the entries booked before `day`, as the settlement bank keeps it (no adjusting entries: it never sees them). */
async function balancesBefore(db: Queryable, day: string): Promise<Map<string, bigint>> {
  const rows = await db.query<{ id: string; balance: string }>(
    `SELECT a.id::text AS id,
            coalesce(sum(CASE WHEN t.debit_account_id = a.id THEN t.amount ELSE -t.amount END), 0)::text AS balance
       FROM unnest($1::uuid[]) AS a (id)
       LEFT JOIN ledger_transfers t ON (t.debit_account_id = a.id OR t.credit_account_id = a.id)
             AND t.posted_on < $2::date AND t.flags & 10 = 0 AND t.code <> $3
      GROUP BY a.id`,
    [settlementBankAccounts.map((account) => account.ledgerAccountId), day, transferCodes.adjustment],
  );
  return new Map(rows.map((row) => [row.id, BigInt(row.balance)]));
}

/** The BAI2 text the sandbox's settlement bank sends for business day `day` (exported for tests and the journey). */
export async function sandboxStatement(db: Queryable, config: Config, day: string): Promise<string> {
  const from = addDays(previousBusinessDay(day), 1);
  const entries = (await settlementTransfersBooked(db, from, day)).flatMap(settlementEntriesOf);
  const opening = await balancesBefore(db, from);
  const settlementBank = config.ach.destinationRoutingNumber;
  const accounts: Bai2Account[] = settlementBankAccounts.map((account) => {
    const mine = entries.filter((entry) => entry.settlementAccount === account.key);
    const credits = mine.filter((entry) => entry.direction === 'credit').reduce((sum, entry) => sum + entry.amountCents, 0n);
    const debits = mine.filter((entry) => entry.direction === 'debit').reduce((sum, entry) => sum + entry.amountCents, 0n);
    const openingCents = opening.get(account.ledgerAccountId) ?? 0n;
    return {
      accountNumber: account.accountNumber,
      currency: 'USD',
      summaries: [
        { typeCode: '010', amountCents: openingCents },
        { typeCode: '015', amountCents: openingCents + credits - debits },
        { typeCode: '100', amountCents: credits },
        { typeCode: '400', amountCents: debits },
      ],
      details: mine.map((entry, index) => ({
        typeCode: account.typeCodes[entry.direction],
        amountCents: entry.amountCents,
        fundsType: '0',
        bankReference: `SB${day.replaceAll('-', '')}${account.accountNumber.slice(-4)}${String(index + 1).padStart(5, '0')}`,
        customerReference: entry.transferId.replaceAll('-', ''),
        text: transferCodeDescription(entry.code),
      })),
    };
  });
  return writeBai2({
    sender: settlementBank,
    receiver: businessConstants.bankRoutingNumber,
    createdAt: { date: day, time: '2359' },
    fileId: day.replaceAll('-', '').slice(2),
    groups: [{ originator: settlementBank, ultimateReceiver: businessConstants.bankRoutingNumber, asOfDate: day, currency: 'USD', accounts }],
  });
}

/** After each business day (sandbox): writes that day's BAI2 statement of the settlement accounts and imports it (imported by 'rail-simulator'). */
export function sandboxStatementAfterDay(deps: ReconciliationDependencies): (day: string) => Promise<void> {
  // A bank in production receives its settlement bank's real statements and imports them (`reconcile FILE`, the console).
  if (deps.config.mode !== 'sandbox') return async () => {};
  return async (day) => {
    const content = await sandboxStatement(deps.db, deps.config, day);
    const target = sandboxStatementPath(deps.config, day);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    await writeFile(target, content, { mode: 0o600 });
    const outcome = await importStatement(
      deps,
      { fileName: `${day}.bai2`, content },
      { actorType: 'system', actorId: 'rail-simulator', reason: "the sandbox settlement bank's statement of the day" },
    );
    // A day run again writes the same statement, imported already; anything else is a defect of the simulator.
    if (outcome.kind === 'invalid') throw new Error(`the sandbox's statement of ${day} does not import: ${outcome.message}`);
  };
}
