import { batchedPerDatabase, createBatchedLookup } from '../db/batched-lookup.ts';
import type { Database, Queryable } from '../db/database.ts';
import { assert, assertInteger, normalizeUuid } from './assert.ts';
import { normalSideOfCode, type NormalSide } from './codes.ts';
import { maxBatchSize, maxCode, maxLedger, maxLookupSize } from './limits.ts';
import { applyLinkedChains, type UndoScope } from './linked-chains.ts';
import type { CreateAccountOutcome, CreateAccountResult } from './result-codes.ts';
import { retryOnWriteConflict } from './retry.ts';
import { accountColumns, accountFromRow, qualified, type AccountRow } from './rows.ts';
import { accountFlags, accountFlagsMask, hasFlag, intMaxId, zeroId } from './types.ts';
import type { AccountBalances, AccountInput, LedgerAccount } from './types.ts';

/**
 * Creates ledger accounts with TigerBeetle's create_accounts semantics: each gets a result, an id
 * that exists answers `exists` or `exists_with_different_<field>`, linked chains are all or none.
 * Counters always start at zero. Rare and not hot, so it reads, decides and inserts plainly.
 */
export async function createAccounts(db: Database, inputs: readonly AccountInput[]): Promise<CreateAccountOutcome[]> {
  assert(inputs.length <= maxBatchSize, `a batch holds at most ${maxBatchSize} accounts`);
  if (inputs.length === 0) return [];
  const batch = inputs.map(normalizeAccount);
  return retryOnWriteConflict(() => db.transaction((tx) => executeAccountBatch(tx, batch)));
}

function normalizeAccount(input: AccountInput): AccountInput & { flags: number } {
  assertInteger(input.ledger, 0, maxLedger, 'ledger');
  assertInteger(input.code, 0, maxCode, 'code');
  const flags = input.flags ?? 0;
  assertInteger(flags, 0, 0xffff, 'flags');
  return { id: normalizeUuid(input.id, 'id'), ledger: input.ledger, code: input.code, flags };
}

async function executeAccountBatch(tx: Queryable, batch: ReadonlyArray<AccountInput & { flags: number }>): Promise<CreateAccountOutcome[]> {
  const rows = await tx.query<AccountRow>(
    `SELECT ${qualified('a', accountColumns)}
     FROM unnest($1::uuid[]) AS wanted (id) JOIN ledger_accounts AS a ON a.id = wanted.id`,
    [[...new Set(batch.map((account) => account.id))]],
  );
  const known = new Map(rows.map((row) => [row.id, accountFromRow(row)]));
  const created: Array<AccountInput & { flags: number }> = [];
  const scope: UndoScope = {
    mark: () => created.length,
    rollback: (mark) => {
      for (const account of created.splice(mark)) known.delete(account.id);
    },
  };

  const results = applyLinkedChains(
    batch,
    (account) => hasFlag(account.flags, accountFlags.linked),
    (account): CreateAccountResult => {
      if ((account.flags & ~accountFlagsMask) !== 0) return 'reserved_flag';
      if (account.id === zeroId) return 'id_must_not_be_zero';
      if (account.id === intMaxId) return 'id_must_not_be_int_max';
      const existing = known.get(account.id);
      if (existing) {
        if (existing.flags !== account.flags) return 'exists_with_different_flags';
        if (existing.ledger !== account.ledger) return 'exists_with_different_ledger';
        if (existing.code !== account.code) return 'exists_with_different_code';
        return 'exists';
      }
      const bothLimits = accountFlags.debitsMustNotExceedCredits | accountFlags.creditsMustNotExceedDebits;
      if ((account.flags & bothLimits) === bothLimits) return 'flags_are_mutually_exclusive';
      if (account.ledger === 0) return 'ledger_must_not_be_zero';
      if (account.code === 0) return 'code_must_not_be_zero';
      known.set(account.id, { ...account, ...zeroBalances, createdAt: new Date(0) });
      created.push(account);
      return 'ok';
    },
    scope,
    () => undefined,
  );

  const inserted = new Map<string, LedgerAccount>();
  if (created.length > 0) {
    // A concurrent creation of the same id raises a unique violation; the batch then runs again
    // and answers `exists`.
    const insertedRows = await tx.query<AccountRow>(
      `INSERT INTO ledger_accounts (id, ledger, code, flags)
       SELECT * FROM unnest($1::uuid[], $2::integer[], $3::integer[], $4::integer[])
       RETURNING ${accountColumns}`,
      [created.map((a) => a.id), created.map((a) => a.ledger), created.map((a) => a.code), created.map((a) => a.flags)],
    );
    assert(insertedRows.length === created.length, 'not every account was inserted');
    for (const row of insertedRows) inserted.set(row.id, accountFromRow(row));
  }
  const stored = new Map(rows.map((row) => [row.id, accountFromRow(row)]));

  return results.map((result, index): CreateAccountOutcome => {
    const id = batch[index]?.id ?? zeroId;
    if (result === 'ok' || result === 'exists') {
      const account = inserted.get(id) ?? stored.get(id);
      assert(account !== undefined, `account ${id} answered ${result} but is nowhere`);
      return { index, id, result, account };
    }
    return { index, id, result };
  });
}

const zeroBalances: AccountBalances = {
  debitsPendingCents: 0n,
  debitsPostedCents: 0n,
  creditsPendingCents: 0n,
  creditsPostedCents: 0n,
};

/**
 * The accounts found, in the order asked; ids not found are left out, as in TigerBeetle. On the
 * pool, the lookups asked at the same moment are one statement (db/batched-lookup.ts, decision
 * 044: every accounts page and payment reads its accounts); in a transaction, its own statement.
 */
export async function lookupAccounts(db: Queryable, ids: readonly string[]): Promise<LedgerAccount[]> {
  assert(ids.length <= maxLookupSize, `a lookup asks for at most ${maxLookupSize} ids`);
  if (ids.length === 0) return [];
  const normalized = ids.map((id) => normalizeUuid(id, 'account id'));
  const rows = await lookupAccountRowsBatched(db, normalized);
  return rows.flatMap((row) => (row ? [accountFromRow(row)] : []));
}

/** The rows of the ids, in their order (undefined for an id with no account), in one statement. */
async function readAccountRows(db: Queryable, ids: readonly string[]): Promise<(AccountRow | undefined)[]> {
  const rows = await db.query<AccountRow>(
    `SELECT ${qualified('a', accountColumns)}
     FROM unnest($1::uuid[]) AS wanted (id) JOIN ledger_accounts AS a ON a.id = wanted.id`,
    [[...new Set(ids)]],
    { name: 'ledger_lookup_accounts' },
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id));
}

/** A lookup's ids are one key: the batch reads every id of its lookups at once and gives each its rows. */
const lookupAccountRowsBatched = batchedPerDatabase<readonly string[], (AccountRow | undefined)[]>(
  (db) =>
    createBatchedLookup({
      // Lookups of up to maxLookupSize ids each: a batch of 16 reads at most 16 times as many.
      maxBatch: 16,
      concurrency: 4,
      run: async (lookups) => {
        const rows = await readAccountRows(db, lookups.flat());
        let next = 0;
        return lookups.map((lookup) => {
          const own = rows.slice(next, next + lookup.length);
          next += lookup.length;
          return own;
        });
      },
    }),
  readAccountRows,
);

export interface Balance {
  side: NormalSide;
  /** Posted money on the account's normal side: what a statement shows. */
  balanceCents: bigint;
  /** The balance less what is reserved by pending transfers going out: what can be spent. */
  availableCents: bigint;
}

/**
 * A credit-normal account (a customer's deposit) has balance = credits_posted - debits_posted and
 * available = balance - debits_pending; a debit-normal one (a loan, a settlement account) the
 * mirror image. The side follows the limit flag if the account has one, else its code.
 */
export function balanceOf(account: LedgerAccount): Balance {
  const side = normalSideOf(account);
  if (side === 'credit') {
    const balanceCents = account.creditsPostedCents - account.debitsPostedCents;
    return { side, balanceCents, availableCents: balanceCents - account.debitsPendingCents };
  }
  const balanceCents = account.debitsPostedCents - account.creditsPostedCents;
  return { side, balanceCents, availableCents: balanceCents - account.creditsPendingCents };
}

export function normalSideOf(account: Pick<LedgerAccount, 'flags' | 'code'>): NormalSide {
  if (hasFlag(account.flags, accountFlags.debitsMustNotExceedCredits)) return 'credit';
  if (hasFlag(account.flags, accountFlags.creditsMustNotExceedDebits)) return 'debit';
  return normalSideOfCode(account.code);
}
