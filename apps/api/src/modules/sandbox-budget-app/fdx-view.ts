/**
 * What Pennywise shows of the FDX answers it reads (docs/connected-apps.md, "The sandbox's app"),
 * taken apart as an outside app would: FDX wraps each account and transaction in an object named
 * by its kind (`{ depositAccount: {...} }`), amounts are decimal numbers and a transaction's
 * direction is its debitCreditMemo. Anything missing is shown as missing, never invented.
 */
export interface AccountView {
  accountId: string;
  name: string;
  numberDisplay: string | undefined;
  currentBalance: string | undefined;
  availableBalance: string | undefined;
}

export interface TransactionView {
  transactionId: string;
  date: string;
  description: string;
  /** Signed and formatted: "-$12.50" out, "$1,000.00" in. */
  amount: string;
  status: string | undefined;
}

type FdxRecord = Record<string, unknown>;

function isRecord(value: unknown): value is FdxRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{ depositAccount: { ... } }` -> the inner object; an object that is not wrapped stays as it is. */
function unwrap(item: unknown): FdxRecord | undefined {
  if (!isRecord(item)) return undefined;
  const keys = Object.keys(item);
  const [only] = keys;
  if (keys.length === 1 && only !== undefined && /(Account|Transaction)$/.test(only) && isRecord(item[only])) return item[only];
  return item;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * A decimal amount as dollars, by its digits (no float arithmetic): 1234.5 -> "$1,234.50". An
 * amount that is not a plain decimal is shown as the bank sent it.
 */
export function formatDecimalDollars(value: unknown, negative = false): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(raw);
  if (!match) return raw;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = fraction.padEnd(2, '0');
  const isNegative = (sign === '-') !== negative && !/^0+$/.test(`${whole}${fraction}`);
  return `${isNegative ? '-' : ''}$${grouped}.${cents}`;
}

/** GET /accounts -> the accounts shown, at most `limit` of them. */
export function accountsOf(body: unknown, limit: number): AccountView[] {
  const items = isRecord(body) && Array.isArray(body.accounts) ? body.accounts : [];
  const accounts: AccountView[] = [];
  for (const item of items.slice(0, limit)) {
    const account = unwrap(item);
    const accountId = text(account?.accountId);
    if (!account || !accountId) continue;
    accounts.push({
      accountId,
      name: text(account.nickname) ?? text(account.productName) ?? text(account.accountType) ?? 'Account',
      numberDisplay: text(account.accountNumberDisplay),
      currentBalance: formatDecimalDollars(account.currentBalance),
      availableBalance: formatDecimalDollars(account.availableBalance),
    });
  }
  return accounts;
}

/** GET /accounts/{id}/transactions -> the first page's transactions. */
export function transactionsOf(body: unknown): TransactionView[] {
  const items = isRecord(body) && Array.isArray(body.transactions) ? body.transactions : [];
  const transactions: TransactionView[] = [];
  for (const item of items) {
    const transaction = unwrap(item);
    const transactionId = text(transaction?.transactionId);
    if (!transaction || !transactionId) continue;
    const when = text(transaction.postedTimestamp) ?? text(transaction.transactionTimestamp) ?? '';
    transactions.push({
      transactionId,
      date: when.slice(0, 10),
      description: text(transaction.description) ?? text(transaction.memo) ?? '',
      amount: formatDecimalDollars(transaction.amount, transaction.debitCreditMemo === 'DEBIT') ?? '',
      status: text(transaction.status),
    });
  }
  return transactions;
}
