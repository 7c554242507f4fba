/** The bank workload's client side (faults/support/bank-workload.ts), shared with its checker. */
const requestTimeoutMs = 20_000;

/** One customer of the workload: a session, two accounts, and the payees it has paid before. */
export interface BankCustomer {
  id: string;
  name: string;
  phone: string;
  cookie: string;
  csrf: string;
  accounts: { id: string; number: string; type: string }[];
  payees: { number: string; name: string }[];
}

export interface Acknowledged {
  customer: BankCustomer;
  key: string;
  body: TransferBody;
  /** Must be in the payer's history afterwards. */
  paymentId: string;
}

export type TransferBody =
  | { kind: 'own'; fromAccountId: string; toAccountId: string; amountCents: number; message: string }
  | { kind: 'internal'; fromAccountId: string; toAccountNumber: string; accountName: string; amountCents: number; message: string };

/**
 * Why a request got no answer: `refused` never reached a server (the API was down), so nothing
 * happened; `connection` was cut in flight (outcome unknown); `timeout` is a hang.
 */
export type NoAnswer = 'refused' | 'connection' | 'timeout';

/** Talks to the API as one browser at its own (forwarded) address. */
export class BankHttp {
  constructor(
    private readonly origin: () => string,
    readonly address: string,
  ) {}

  /** Another browser at another address (the checker's replays stay under per-address limits). */
  at(address: string): BankHttp {
    return new BankHttp(this.origin, address);
  }

  async call(
    customer: BankCustomer,
    method: 'GET' | 'POST',
    url: string,
    body?: object,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: unknown; retryAfter: string | null } | { status: 'no_answer'; reason: NoAnswer }> {
    try {
      const response = await fetch(`${this.origin()}${url}`, {
        method,
        headers: {
          cookie: customer.cookie,
          'x-forwarded-for': this.address,
          ...(method === 'POST' ? { 'x-csrf-token': customer.csrf, 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      const text = await response.text();
      let json: unknown = undefined;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = text;
      }
      return { status: response.status, json, retryAfter: response.headers.get('retry-after') };
    } catch (error) {
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      const reason: NoAnswer = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : code === 'ECONNREFUSED' ? 'refused' : 'connection';
      return { status: 'no_answer', reason };
    }
  }
}

export interface BalanceSnapshot {
  byAccount: Map<string, number>;
  total: number;
}

/** Every workload account's balance as the API shows it. */
export async function snapshotBalances(http: BankHttp, customers: readonly BankCustomer[]): Promise<BalanceSnapshot> {
  const byAccount = new Map<string, number>();
  let total = 0;
  for (const customer of customers) {
    const answer = await http.call(customer, 'GET', '/api/v1/accounts');
    if (answer.status !== 200) throw new Error(`reading balances answered ${JSON.stringify(answer)}`);
    for (const account of answer.json as { id: string; balanceCents: number }[]) {
      byAccount.set(account.id, account.balanceCents);
      total += account.balanceCents;
    }
  }
  return { byAccount, total };
}
