import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import { batchedPerDatabase, createBatchedLookup } from '../../db/batched-lookup.ts';
import type { Queryable } from '../../db/database.ts';
import type { KeyRow } from '../../platform/idempotency.ts';
import type { StoredPaymentStatus } from '../../platform/payment-status.ts';

export type { StoredPaymentStatus };

export type Rail = 'ach' | 'wire' | 'card';

export interface PaymentRow {
  id: string;
  customer_id: string;
  kind: PaymentKind;
  status: StoredPaymentStatus;
  from_account_id: string | null;
  to_account_id: string | null;
  amount_cents: bigint;
  counterparty_name: string;
  counterparty_account_number: string | null;
  counterparty_bank_name: string | null;
  counterparty_route_number: string | null;
  counterparty_country: string | null;
  details: Record<string, string>;
  payee_key: string | null;
  message: string;
  rail: Rail | null;
  settle_at: Date | null;
  status_reason: string | null;
  failure_code: string | null;
  /** The account at another bank a deposit pulls from. */
  funding_source_id: string | null;
  /** The NACHA return reason code when another bank returned it (R01, R02, ...). */
  return_code: string | null;
  /** The D1 rule that held it for review; null when none did. Its money stays reserved (pending) until staff decide. */
  review_rule: string | null;
  created_at: Date;
  updated_at: Date;
}

export const paymentColumns = `id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
  counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details, payee_key,
  message, rail, settle_at, status_reason, failure_code, funding_source_id, return_code, review_rule, created_at, updated_at`;

export interface NewPayment {
  id: string;
  customerId: string;
  kind: PaymentKind;
  fromAccountId: string | null;
  toAccountId: string | null;
  amountCents: bigint;
  counterpartyName: string;
  counterpartyAccountNumber?: string | null;
  counterpartyBankName?: string | null;
  counterpartyRouteNumber?: string | null;
  counterpartyCountry?: string | null;
  details?: Record<string, string>;
  cardNumberEncrypted?: Buffer | null;
  payeeKey?: string | null;
  message: string;
  rail?: Rail | null;
  fundingSourceId?: string | null;
  reviewRule?: string | null;
}

export async function insertPayment(db: Queryable, payment: NewPayment): Promise<PaymentRow> {
  const [row] = await db.query<PaymentRow>(
    `INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
       counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details,
       card_number_encrypted, payee_key, message, rail, funding_source_id, review_rule)
     VALUES ($1, $2, $3, 'creating', $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13, $14, $15, $16, $17, $18)
     RETURNING ${paymentColumns}`,
    [
      payment.id,
      payment.customerId,
      payment.kind,
      payment.fromAccountId,
      payment.toAccountId,
      payment.amountCents.toString(),
      payment.counterpartyName,
      payment.counterpartyAccountNumber ?? null,
      payment.counterpartyBankName ?? null,
      payment.counterpartyRouteNumber ?? null,
      payment.counterpartyCountry ?? null,
      JSON.stringify(payment.details ?? {}),
      payment.cardNumberEncrypted ?? null,
      payment.payeeKey ?? null,
      payment.message,
      payment.rail ?? null,
      payment.fundingSourceId ?? null,
      payment.reviewRule ?? null,
    ],
    { name: 'payments_insert' },
  );
  if (!row) throw new Error(`payment ${payment.id} was not inserted`);
  return row;
}

/**
 * A payment written once, finished, beside the transfer that moved its money in the same
 * transaction (move-money.ts: loan disbursements and repayments, referral bonuses). Written once:
 * a second write of the same id (a rerun of the same movement) leaves the first and answers nothing.
 */
export interface FinishedPayment {
  id: string;
  customerId: string;
  kind: PaymentKind;
  fromAccountId: string | null;
  toAccountId: string | null;
  amountCents: bigint;
  counterpartyName: string;
  message: string;
}

export async function insertFinishedPayment(db: Queryable, payment: FinishedPayment): Promise<PaymentRow | undefined> {
  const [row] = await db.query<PaymentRow>(
    `INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name, message)
     VALUES ($1, $2, $3, 'completed', $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING RETURNING ${paymentColumns}`,
    [payment.id, payment.customerId, payment.kind, payment.fromAccountId, payment.toAccountId, payment.amountCents, payment.counterpartyName, payment.message],
  );
  return row;
}

/** The ledger accounts of these customer accounts, by customer account id (move-money.ts). */
export async function ledgerAccountIdsOf(db: Queryable, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db.query<{ id: string; ledger_account_id: string }>('SELECT id, ledger_account_id FROM customer_accounts WHERE id = ANY($1::uuid[])', [
    accountIds,
  ]);
  return new Map(rows.map((row) => [row.id, row.ledger_account_id]));
}

/**
 * The history line of a debit-card purchase (card-purchases.ts): 'pending' while its authorisation
 * holds the money, or 'rejected' with the reason when it was declined. Written once per authorisation.
 */
export interface CardPurchaseRow {
  id: string;
  customerId: string;
  status: 'pending' | 'rejected';
  statusReason: string | null;
  fromAccountId: string;
  amountCents: bigint;
  merchantName: string;
  cardLabel: string;
  details: Record<string, string>;
}

export async function insertCardPurchasePayment(db: Queryable, line: CardPurchaseRow): Promise<void> {
  await db.query(
    // The merchant is the line's message too, so a history search, a statement and a receipt name it.
    `INSERT INTO payments (id, customer_id, kind, status, status_reason, from_account_id, amount_cents, counterparty_name, counterparty_account_number, message, details)
     VALUES ($1, $2, 'card', $3, $4, $5, $6, $7, $8, $7, $9::jsonb) ON CONFLICT (id) DO NOTHING`,
    [
      line.id,
      line.customerId,
      line.status,
      line.statusReason,
      line.fromAccountId,
      line.amountCents,
      line.merchantName,
      line.cardLabel,
      JSON.stringify(line.details),
    ],
  );
}

/**
 * Several new payments in one statement (decision 044); the rows come back in the order given.
 * Each is 'creating' unless it comes with the status its ledger transfer already decided (a
 * payment between one's own accounts is written once, finished: decision 044).
 */
export async function insertPayments(db: Queryable, payments: readonly (NewPayment & { decided?: PaymentChange })[]): Promise<PaymentRow[]> {
  if (payments.length === 0) return [];
  const column = <T>(pick: (payment: NewPayment & { decided?: PaymentChange }) => T) => payments.map(pick);
  const rows = await db.query<PaymentRow>(
    `INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
       counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details,
       card_number_encrypted, payee_key, message, rail, funding_source_id, review_rule, settle_at, failure_code)
     SELECT id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name,
       counterparty_account_number, counterparty_bank_name, counterparty_route_number, counterparty_country, details::jsonb,
       decode(card_number_encrypted, 'hex'), payee_key, message, rail, funding_source_id, review_rule, settle_at, failure_code
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::uuid[], $6::bigint[], $7::text[], $8::text[], $9::text[], $10::text[],
                   $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::uuid[], $18::text[],
                   $19::text[], $20::timestamptz[], $21::text[])
            AS p (id, customer_id, kind, from_account_id, to_account_id, amount_cents, counterparty_name, counterparty_account_number,
                  counterparty_bank_name, counterparty_route_number, counterparty_country, details, card_number_encrypted, payee_key,
                  message, rail, funding_source_id, review_rule, status, settle_at, failure_code)
     RETURNING ${paymentColumns}`,
    [
      column((p) => p.id),
      column((p) => p.customerId),
      column((p) => p.kind),
      column((p) => p.fromAccountId),
      column((p) => p.toAccountId),
      column((p) => p.amountCents.toString()),
      column((p) => p.counterpartyName),
      column((p) => p.counterpartyAccountNumber ?? null),
      column((p) => p.counterpartyBankName ?? null),
      column((p) => p.counterpartyRouteNumber ?? null),
      column((p) => p.counterpartyCountry ?? null),
      column((p) => JSON.stringify(p.details ?? {})),
      column((p) => p.cardNumberEncrypted?.toString('hex') ?? null),
      column((p) => p.payeeKey ?? null),
      column((p) => p.message),
      column((p) => p.rail ?? null),
      column((p) => p.fundingSourceId ?? null),
      column((p) => p.reviewRule ?? null),
      column((p) => p.decided?.status ?? 'creating'),
      column((p) => p.decided?.settleAt ?? null),
      column((p) => p.decided?.failureCode ?? null),
    ],
    { name: 'payments_insert_many_decided' },
  );
  return inOrderOf(payments, rows);
}

/** The rows in the order of the ids given; a missing one is a defect. */
function inOrderOf(wanted: readonly { id: string }[], rows: readonly PaymentRow[]): PaymentRow[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return wanted.map(({ id }) => {
    const row = byId.get(id);
    if (!row) throw new Error(`payment ${id} was not written`);
    return row;
  });
}

export interface PaymentChange {
  id: string;
  status: StoredPaymentStatus;
  settleAt: Date | null;
  failureCode: string | null;
}

/**
 * Moves several payments out of 'creating' in one statement (decision 044). Returns the rows that
 * moved, by id; a payment no longer 'creating' (someone else recorded it) is left out.
 */
export async function transitionFromCreating(db: Queryable, changes: readonly PaymentChange[]): Promise<Map<string, PaymentRow>> {
  if (changes.length === 0) return new Map();
  const rows = await db.query<PaymentRow>(
    `UPDATE payments p SET status = c.status, settle_at = c.settle_at, failure_code = coalesce(c.failure_code, p.failure_code), updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[]) AS c (id, status, settle_at, failure_code)
      WHERE p.id = c.id AND p.status = 'creating'
     RETURNING ${qualifiedPaymentColumns}`,
    [changes.map((c) => c.id), changes.map((c) => c.status), changes.map((c) => c.settleAt), changes.map((c) => c.failureCode)],
    { name: 'payments_transition_from_creating' },
  );
  return new Map(rows.map((row) => [row.id, row]));
}

const qualifiedPaymentColumns = paymentColumns
  .split(',')
  .map((column) => `p.${column.trim()}`)
  .join(', ');

export async function findPayment(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<PaymentRow | undefined> {
  if (!uuidPattern.test(id)) return undefined;
  const [row] = await db.query<PaymentRow>(`SELECT ${paymentColumns} FROM payments WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return row;
}

/** Moves a payment from one status to the next; false when it was no longer in `from` (someone else decided). */
export async function transitionPayment(
  db: Queryable,
  id: string,
  from: readonly StoredPaymentStatus[],
  to: { status: StoredPaymentStatus; settleAt?: Date | null; statusReason?: string | null; failureCode?: string | null; returnCode?: string | null },
): Promise<PaymentRow | undefined> {
  const [row] = await db.query<PaymentRow>(
    `UPDATE payments SET status = $3, settle_at = $4, status_reason = coalesce($5, status_reason), failure_code = coalesce($6, failure_code),
       return_code = coalesce($7, return_code), updated_at = now()
     WHERE id = $1 AND status = ANY($2::text[]) RETURNING ${paymentColumns}`,
    [id, from, to.status, to.settleAt ?? null, to.statusReason ?? null, to.failureCode ?? null, to.returnCode ?? null],
    { name: 'payments_transition' },
  );
  return row;
}

/**
 * A payee paid successfully before, completed or pending (D10: the first payment to a new payee
 * needs a step-up); the ones asked at the same moment are read in one statement.
 */
export function hasPaidPayee(db: Queryable, customerId: string, payeeKey: string): Promise<boolean> {
  return hasPaidPayeeBatched(db, { customerId, payeeKey });
}

interface PayeeOfCustomer {
  customerId: string;
  payeeKey: string;
}

async function readPaidPayees(db: Queryable, asked: readonly PayeeOfCustomer[]): Promise<boolean[]> {
  const rows = await db.query<{ position: string }>(
    `SELECT a.position::text AS position FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS a (customer_id, payee_key, position)
      WHERE EXISTS (SELECT 1 FROM payments p WHERE p.customer_id = a.customer_id AND p.payee_key = a.payee_key AND p.status IN ('completed', 'pending'))`,
    [asked.map((pair) => pair.customerId), asked.map((pair) => pair.payeeKey)],
    { name: 'payments_paid_payees' },
  );
  const paid = new Set(rows.map((row) => Number(row.position)));
  return asked.map((_, index) => paid.has(index + 1));
}

const hasPaidPayeeBatched = batchedPerDatabase<PayeeOfCustomer, boolean>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (asked) => readPaidPayees(db, asked) }),
  async (db, pair) => (await readPaidPayees(db, [pair]))[0] ?? false,
);

/** What D1's rules need to know of one customer's earlier payments to one payee (review-rules.ts). */
export interface ReviewFacts {
  /** When this customer first paid this payee (any payment not refused), or null if never. */
  firstPaidAt: Date | null;
  /**
   * What this customer sent in the last 24 hours to payees first paid in the last 24 hours (D1's
   * second rule); summed only when one of the payees asked about with it is new (else 0: no rule needs it).
   */
  newPayeeSpendCents: bigint;
}

/**
 * The review facts of several (customer, payee) pairs in one statement (decision 044): a group of
 * payments to other people asks once, however many. Answers in the order asked.
 */
export async function reviewFacts(db: Queryable, asked: readonly { customerId: string; payeeKey: string }[]): Promise<ReviewFacts[]> {
  if (asked.length === 0) return [];
  const rows = await db.query<{ position: string; first_at: Date | null; spent: bigint | null }>(
    `WITH asked AS (
       SELECT a.customer_id, a.payee_key, a.position,
              (SELECT min(p.created_at) FROM payments p
                WHERE p.customer_id = a.customer_id AND p.payee_key = a.payee_key AND p.status IN ('creating', 'completed', 'pending', 'in_review')) AS first_at
         FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS a (customer_id, payee_key, position)),
     -- What went to new payees is summed only for a customer paying a new payee now (never paid,
     -- or first paid within the day; an hour more, so that the application's clock, which decides
     -- newness, can never find a payee new whose spend was not summed).
     customers AS (SELECT DISTINCT customer_id FROM asked WHERE first_at IS NULL OR first_at > now() - interval '25 hours'),
     spent AS (
       SELECT c.customer_id, (
         WITH first_paid AS (
           SELECT payee_key, min(created_at) AS first_at FROM payments
            WHERE customer_id = c.customer_id AND payee_key IS NOT NULL AND status IN ('creating', 'completed', 'pending', 'in_review')
            GROUP BY payee_key)
         SELECT sum(p.amount_cents)::bigint FROM payments p JOIN first_paid f ON f.payee_key = p.payee_key
          WHERE p.customer_id = c.customer_id AND p.status IN ('creating', 'completed', 'pending', 'in_review')
            AND p.created_at > now() - interval '24 hours' AND f.first_at > now() - interval '24 hours') AS total
         FROM customers c)
     SELECT a.position::text AS position, a.first_at, s.total AS spent
       FROM asked a LEFT JOIN spent s ON s.customer_id = a.customer_id`,
    [asked.map((pair) => pair.customerId), asked.map((pair) => pair.payeeKey)],
    { name: 'payments_review_facts' },
  );
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  return asked.map((_, index) => {
    const row = byPosition.get(index + 1);
    return { firstPaidAt: row?.first_at ?? null, newPayeeSpendCents: row?.spent ?? 0n };
  });
}

export async function listPaymentsByStatus(db: Queryable, customerId: string, status: StoredPaymentStatus, limit: number): Promise<PaymentRow[]> {
  return db.query<PaymentRow>(`SELECT ${paymentColumns} FROM payments WHERE customer_id = $1 AND status = $2 ORDER BY created_at DESC, id DESC LIMIT $3`, [
    customerId,
    status,
    limit,
  ]);
}

/**
 * Pending payments whose rail is due, locked so that two workers never settle the same one.
 * `exceptKinds` stay pending whatever their time says (deposits in production wait for the rail).
 */
export async function claimDuePayments(tx: Queryable, limit: number, exceptKinds: readonly PaymentKind[] = []): Promise<PaymentRow[]> {
  return tx.query<PaymentRow>(
    `SELECT ${paymentColumns} FROM payments WHERE status = 'pending' AND settle_at <= now() AND kind <> ALL($2::text[])
     ORDER BY settle_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [limit, exceptKinds],
  );
}

export interface AccountRef {
  id: string;
  customer_id: string;
  type: 'checking' | 'savings';
  number: string;
  name: string;
  status: 'active' | 'inactive' | 'closed';
  ledger_account_id: string;
  /** Set once a returned deposit has taken the account below zero (accounts/owed.ts). */
  owed_ledger_account_id: string | null;
  identity_approved: boolean;
  holder_name: string;
}

const accountRefColumns = `a.id, a.customer_id, a.type, a.number, a.name, a.status, a.ledger_account_id, a.owed_ledger_account_id,
  EXISTS (SELECT 1 FROM identity_reviews r WHERE r.customer_id = a.customer_id AND r.status = 'approved') AS identity_approved,
  c.first_name || ' ' || c.last_name AS holder_name`;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function findAccountById(db: Queryable, id: string): Promise<AccountRef | undefined> {
  return uuidPattern.test(id) ? findAccountBatched(db, id.toLowerCase()) : Promise.resolve(undefined);
}

/**
 * Several accounts, in the order asked; a missing (or malformed) id is undefined. The accounts
 * asked for at the same moment, by this request and others, are read in one statement
 * (db/batched-lookup.ts, decision 044).
 */
export function findAccountsById(db: Queryable, ids: readonly string[]): Promise<(AccountRef | undefined)[]> {
  return Promise.all(ids.map((id) => (uuidPattern.test(id) ? findAccountBatched(db, id.toLowerCase()) : Promise.resolve(undefined))));
}

/** The accounts by id or by number, in the order asked (undefined for none), in one statement. */
async function readAccounts(db: Queryable, by: 'id' | 'number', keys: readonly string[]): Promise<(AccountRef | undefined)[]> {
  const rows = await db.query<AccountRef & { position: string }>(
    `SELECT w.position::text AS position, ${accountRefColumns}
       FROM unnest($1::${by === 'id' ? 'uuid' : 'text'}[]) WITH ORDINALITY AS w (wanted, position)
       JOIN customer_accounts a ON a.${by} = w.wanted JOIN customers c ON c.id = a.customer_id`,
    [keys],
    { name: `payments_accounts_by_${by}s` },
  );
  const byPosition = new Map(rows.map(({ position, ...account }) => [Number(position), account]));
  return keys.map((_, index) => byPosition.get(index + 1));
}

const findAccountBatched = batchedPerDatabase<string, AccountRef | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (ids) => readAccounts(db, 'id', ids) }),
  async (db, id) => (await readAccounts(db, 'id', [id]))[0],
);

/** By its number; the accounts asked for at the same moment are read in one statement (db/batched-lookup.ts). */
export function findAccountByNumber(db: Queryable, number: string): Promise<AccountRef | undefined> {
  // Only digits can be an account number; anything else is none, and never joins a shared statement.
  return /^[0-9]{1,34}$/.test(number) ? findAccountByNumberBatched(db, number) : Promise.resolve(undefined);
}

const findAccountByNumberBatched = batchedPerDatabase<string, AccountRef | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (numbers) => readAccounts(db, 'number', numbers) }),
  async (db, number) => (await readAccounts(db, 'number', [number]))[0],
);

/** What a payment request needs to know of its payer before planning, read in one statement; undefined for a customer who does not exist. */
export interface Payer {
  /** The name as a payment shows it to a recipient. */
  name: string;
  /** Under an open freeze (platform/account-freeze.ts): no money moves. */
  frozen: boolean;
  /** The Idempotency-Key's row, when an earlier request used it. */
  key: KeyRow | undefined;
}

export function findPayer(db: Queryable, customerId: string, idempotencyKey: string): Promise<Payer | undefined> {
  return findPayerBatched(db, { customerId, idempotencyKey });
}

interface PayerKey {
  customerId: string;
  idempotencyKey: string;
}

/** The payers of the requests of one moment in one statement (db/batched-lookup.ts, decision 044). */
async function readPayers(db: Queryable, keys: readonly PayerKey[]): Promise<(Payer | undefined)[]> {
  const rows = await db.query<{ position: string; name: string; frozen: boolean } & { [K in keyof KeyRow]: KeyRow[K] | null }>(
    `SELECT w.position::text AS position, c.first_name || ' ' || c.last_name AS name,
            EXISTS (SELECT 1 FROM customer_freezes f WHERE f.customer_id = c.id AND f.unfrozen_at IS NULL) AS frozen,
            k.request_hash, k.payment_id, k.response_status, k.response_body
       FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS w (customer_id, key, position)
       JOIN customers c ON c.id = w.customer_id
       LEFT JOIN idempotency_keys k ON k.customer_id = w.customer_id AND k.key = w.key`,
    [keys.map((key) => key.customerId), keys.map((key) => key.idempotencyKey)],
    { name: 'payments_payers' },
  );
  const byPosition = new Map(rows.map((row) => [Number(row.position), row]));
  return keys.map((_, index) => {
    const row = byPosition.get(index + 1);
    if (!row) return undefined;
    const key =
      row.request_hash === null || row.payment_id === null
        ? undefined
        : { request_hash: row.request_hash, payment_id: row.payment_id, response_status: row.response_status, response_body: row.response_body };
    return { name: row.name, frozen: row.frozen, key };
  });
}

const findPayerBatched = batchedPerDatabase<PayerKey, Payer | undefined>(
  (db) => createBatchedLookup({ maxBatch: 200, concurrency: 4, run: (keys) => readPayers(db, keys) }),
  async (db, key) => (await readPayers(db, [key]))[0],
);

/**
 * Locks these customers' rows until the transaction ends, in ascending id order, in one statement:
 * a transaction that locks them all first never waits for one of them later (decision 044). The
 * lock is FOR NO KEY UPDATE: it makes two claims of one customer take turns, and it does not stop
 * another transaction from inserting a row that names the customer (a foreign key takes FOR KEY
 * SHARE, which it lets through), so a payment that takes no customer lock never waits on one.
 */
export async function lockCustomers(tx: Queryable, customerIds: readonly string[]): Promise<void> {
  if (customerIds.length === 0) return;
  await tx.query('SELECT 1 FROM customers WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE', [[...new Set(customerIds)]], {
    name: 'payments_lock_customers',
  });
}

/** Locks the customer's row until the transaction ends: one customer's payments are claimed one at a time. */
export async function lockCustomer(tx: Queryable, customerId: string): Promise<void> {
  await tx.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId], { name: 'payments_lock_customer' });
}

/**
 * Deposits of the bank's day (in `timeZone`) being made, pending, held or cleared, and whether
 * the customer's first account opened within `recentDays` (or none is open yet).
 */
export async function depositsToday(
  tx: Queryable,
  customerId: string,
  timeZone: string,
  recentDays: number,
): Promise<{ todayCents: bigint; openedRecently: boolean }> {
  const [row] = await tx.query<{ today_cents: bigint; opened_recently: boolean }>(
    `SELECT
       coalesce((SELECT sum(amount_cents) FROM payments
                 WHERE customer_id = $1 AND kind = 'deposit' AND status IN ('creating', 'pending', 'in_review', 'completed')
                   AND created_at >= date_trunc('day', now() AT TIME ZONE $2) AT TIME ZONE $2), 0)::bigint AS today_cents,
       coalesce((SELECT min(opened_at) FROM customer_accounts WHERE customer_id = $1) > now() - make_interval(days => $3), true) AS opened_recently`,
    [customerId, timeZone, recentDays],
  );
  return { todayCents: row?.today_cents ?? 0n, openedRecently: row?.opened_recently ?? true };
}

/** A deposit returned after it cleared: its reversal is due until written (rail-outcomes.ts). */
export async function markReversalDue(tx: Queryable, paymentId: string): Promise<void> {
  await tx.query('UPDATE payments SET reversal_due = true WHERE id = $1', [paymentId]);
}

/** True for the one caller that cleared it: only that one tells the customer. */
export async function clearReversalDue(tx: Queryable, paymentId: string): Promise<boolean> {
  const rows = await tx.query('UPDATE payments SET reversal_due = false WHERE id = $1 AND reversal_due RETURNING id', [paymentId]);
  return rows.length === 1;
}

export async function paymentsWithReversalDue(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>('SELECT id FROM payments WHERE reversal_due ORDER BY id LIMIT $1', [limit]);
  return rows.map((row) => row.id);
}

/** Payments decided (completed, rejected or returned) whose pending transfer the ledger still holds pending. */
export async function decisionsNotInLedger(db: Queryable, limit: number): Promise<{ id: string; status: StoredPaymentStatus }[]> {
  return db.query<{ id: string; status: StoredPaymentStatus }>(
    `SELECT p.id, p.status FROM payments p JOIN pending_transfer_states s ON s.pending_id = p.id
     WHERE s.state = 'pending' AND p.status IN ('completed', 'rejected', 'returned') LIMIT $1`,
    [limit],
  );
}

export interface HeldPaymentRow {
  id: string;
  kind: string;
  amount_cents: bigint;
  counterparty_name: string;
  customer: string;
  created_at: Date;
  rule: string | null;
}

/** Payments waiting for a review decision, oldest first, with the customer's email and the rule that held each. */
export async function listHeldPayments(db: Queryable, limit: number): Promise<HeldPaymentRow[]> {
  return db.query<HeldPaymentRow>(
    `SELECT p.id, p.kind, p.amount_cents, p.counterparty_name, c.email AS customer, p.created_at, p.review_rule AS rule
     FROM payments p JOIN customers c ON c.id = p.customer_id WHERE p.status = 'in_review' ORDER BY p.created_at LIMIT $1`,
    [limit],
  );
}
