import type { Database } from '../../db/database.ts';
import { checkLedger } from '../../ledger/check-ledger.ts';
import { snapshotBalances, type Acknowledged, type BalanceSnapshot, type BankCustomer, type BankHttp, type TransferBody } from './bank-http.ts';

/**
 * The bank workload's checker (decision 036), run once the faults are over:
 * - no read showed a negative balance;
 * - the sum of all the workload's balances is what it was before (money only moved among them);
 * - every acknowledged (201) transfer is in its payer's history, and completed;
 * - replaying an acknowledged key answers the same payment and moves nothing;
 * - the ledger's own invariants hold (`check-ledger`).
 * A transfer whose answer was unknown is replayed once with its key: if it had committed, it must
 * then be in history too; if not, the replay is a fresh attempt; either way it comes to an answer
 * and no payment stays unfinished.
 */
export interface BankCheck {
  violations: string[];
  balanceTotalBefore: number;
  balanceTotalAfter: number;
  replayed: number;
  unknownResolved: number;
  ledgerViolations: number;
  /** The unknown transfers whose replay answered 201: acknowledged now, to check again later. */
  resolvedAcknowledged?: Acknowledged[];
}

interface CheckInput {
  db: Database;
  http: BankHttp;
  customers: readonly BankCustomer[];
  before: BalanceSnapshot;
  acknowledged: readonly Acknowledged[];
  unknownKeys: readonly { customer: BankCustomer; key: string; body: TransferBody }[];
  negativeReads: readonly string[];
  /**
   * Replays made from earlier checks in the same minute (a run that checks after every fault):
   * this check's replays start at the address after theirs, under the per-address limits.
   */
  replaysBefore?: number;
}

/** Most replays of acknowledged keys (all of them in the short run). */
const replayLimit = 400;
/** Replays per checking address, under the payments' 120 a minute per address. */
const replaysPerAddress = 100;

/** Runs `work` over `items`, a few at a time. */
async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>, width = 8): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

function errorCode(answer: { json?: unknown }): string | undefined {
  return (answer.json as { error?: { code?: string } } | undefined)?.error?.code;
}

async function historyTransferIds(http: BankHttp, customer: BankCustomer): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < 1_000; page += 1) {
    const url = `/api/v1/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await http.call(customer, 'GET', url);
    if (answer.status !== 200) throw new Error(`history answered ${JSON.stringify(answer)}`);
    const list = answer.json as { items: { transferId: string }[]; nextCursor: string | null };
    for (const item of list.items) ids.add(item.transferId);
    cursor = list.nextCursor;
    if (!cursor) break;
  }
  return ids;
}

export async function checkBank(input: CheckInput): Promise<BankCheck> {
  const { db, http, customers } = input;
  const violations: string[] = [];
  for (const read of input.negativeReads.slice(0, 10)) violations.push(`a read showed a negative balance: ${read}`);

  // Unknown outcomes first: a replay either finds the first attempt (finishing it if the request
  // died after claiming its key) or makes a fresh one. Nothing is running now, so every replay
  // must come to an answer: 201, or 422 insufficient_funds; a 409 "already being processed" would
  // leave the customer not knowing.
  const acknowledged = [...input.acknowledged];
  let unknownResolved = 0;
  let replays = input.replaysBefore ?? 0;
  // Each hundred replays come from another address of the documentation range (192.0.2.0/24).
  const replayer = () => http.at(`192.0.2.${1 + (Math.floor(replays++ / replaysPerAddress) % 250)}`);
  await inParallel(input.unknownKeys, async (unknown) => {
    const answer = await replayer().call(unknown.customer, 'POST', '/api/v1/transfers', unknown.body, { 'idempotency-key': unknown.key });
    if (answer.status === 201) {
      unknownResolved += 1;
      acknowledged.push({ ...unknown, paymentId: (answer.json as { transfer: { id: string } }).transfer.id });
    } else if (answer.status === 422 && errorCode(answer) === 'insufficient_funds') {
      unknownResolved += 1;
    } else {
      violations.push(`replaying an unknown transfer answered ${JSON.stringify(answer)}`);
    }
  });
  const [unfinished] = await db.query<{ count: bigint }>(`SELECT count(*) AS count FROM payments WHERE customer_id = ANY($1::uuid[]) AND status = 'creating'`, [
    customers.map((customer) => customer.id),
  ]);
  if (unfinished && unfinished.count > 0n) violations.push(`${unfinished.count} payments are still unfinished ('creating') after every key was replayed`);

  const after = await snapshotBalances(http, customers);
  if (after.total !== input.before.total) violations.push(`the balances summed to ${input.before.total} cents before and ${after.total} after`);

  // Every acknowledged transfer is in its payer's history and completed.
  const histories = new Map<string, Set<string>>();
  for (const customer of customers) histories.set(customer.id, await historyTransferIds(http, customer));
  for (const ack of acknowledged) {
    if (!histories.get(ack.customer.id)?.has(ack.paymentId)) violations.push(`acknowledged transfer ${ack.paymentId} is not in its payer's history`);
  }
  const ids = acknowledged.map((ack) => ack.paymentId);
  const rows = await db.query<{ id: string; status: string }>(`SELECT id, status FROM payments WHERE id = ANY($1::uuid[])`, [ids]);
  const statusOf = new Map(rows.map((row) => [row.id, row.status]));
  for (const id of ids) if (statusOf.get(id) !== 'completed') violations.push(`acknowledged transfer ${id} is ${statusOf.get(id) ?? 'missing'}`);

  // Replaying an acknowledged key answers the same payment and moves nothing.
  let replayed = 0;
  await inParallel(input.acknowledged.slice(0, replayLimit), async (ack) => {
    const answer = await replayer().call(ack.customer, 'POST', '/api/v1/transfers', ack.body, { 'idempotency-key': ack.key });
    replayed += 1;
    const replayedId = answer.status === 201 ? (answer.json as { transfer: { id: string } }).transfer.id : undefined;
    if (replayedId !== ack.paymentId) violations.push(`replaying ${ack.key} answered ${JSON.stringify(answer)}, not payment ${ack.paymentId}`);
  });
  const afterReplays = await snapshotBalances(http, customers);
  for (const [account, cents] of after.byAccount) {
    if (afterReplays.byAccount.get(account) !== cents)
      violations.push(`replays moved money in account ${account}: ${cents} -> ${afterReplays.byAccount.get(account)}`);
  }

  const ledger = await checkLedger(db);
  for (const violation of ledger.violations.slice(0, 10)) violations.push(`check-ledger: ${JSON.stringify(violation)}`);

  return {
    violations,
    balanceTotalBefore: input.before.total,
    balanceTotalAfter: after.total,
    replayed,
    unknownResolved,
    ledgerViolations: ledger.violations.length,
    resolvedAcknowledged: acknowledged.slice(input.acknowledged.length),
  };
}
