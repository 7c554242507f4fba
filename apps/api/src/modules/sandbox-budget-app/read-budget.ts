import * as client from 'openid-client';
import type { BankClient } from './bank-client.ts';
import { accountsOf, transactionsOf } from './fdx-view.ts';
import type { AccountReading, BudgetReading } from './pages.ts';
import type { Connection } from './sessions.ts';

/** A bound on what one page reads: this many accounts, each with the first page of its transactions. */
export const maxAccountsRead = 10;

export type ReadOutcome = { status: 'read'; reading: BudgetReading; connection: Connection } | { status: 'ended' };

type Answer = { status: number; body: unknown } | 'invalid_token';

/**
 * One GET of the resource API. The bank's 401 and 403 carry a WWW-Authenticate challenge (RFC 6750,
 * RFC 9449), which openid-client turns into an error: a 401 means the token no longer works, a 403
 * that this data was not shared.
 */
async function get(bank: BankClient, connection: Connection, path: string): Promise<Answer> {
  let response: Response;
  try {
    response = await bank.read(connection, path);
  } catch (error) {
    if (error instanceof client.WWWAuthenticateChallengeError && error.status === 401) return 'invalid_token';
    if (error instanceof client.WWWAuthenticateChallengeError) return { status: error.status, body: undefined };
    throw error;
  }
  if (response.status === 401) return 'invalid_token';
  const body: unknown = response.ok ? await response.json().catch(() => undefined) : undefined;
  return { status: response.status, body };
}

async function readOnce(bank: BankClient, connection: Connection): Promise<BudgetReading | 'invalid_token'> {
  const listed = await get(bank, connection, '/fdx/v6/accounts');
  if (listed === 'invalid_token') return listed;
  if (listed.status === 403) return { scopes: connection.scopes, accountsShared: false, accounts: [] };
  if (listed.status !== 200) throw new Error(`Strongroom answered ${listed.status} when Pennywise asked for the accounts.`);
  const accounts: AccountReading[] = [];
  for (const listedAccount of accountsOf(listed.body, maxAccountsRead)) {
    const path = `/fdx/v6/accounts/${encodeURIComponent(listedAccount.accountId)}`;
    // The list names the accounts; their balances come with each account's details (FDX), when shared.
    const details = await get(bank, connection, path);
    if (details === 'invalid_token') return details;
    const account = (details.status === 200 ? accountsOf({ accounts: [details.body] }, 1)[0] : undefined) ?? listedAccount;
    const lines = await get(bank, connection, `${path}/transactions`);
    if (lines === 'invalid_token') return lines;
    const transactions = lines.status === 200 ? transactionsOf(lines.body) : lines.status === 403 ? 'not_shared' : 'unavailable';
    accounts.push({ account, transactions });
  }
  return { scopes: connection.scopes, accountsShared: true, accounts };
}

/**
 * Reads the accounts and their transactions. An access token lives minutes: when the bank says it
 * no longer works, the refresh token is tried once; when the bank refuses that too (the consent was
 * revoked or expired: its tokens are gone), the access has ended.
 */
export async function readBudget(bank: BankClient, connection: Connection): Promise<ReadOutcome> {
  const first = await readOnce(bank, connection);
  if (first !== 'invalid_token') return { status: 'read', reading: first, connection };
  if (!connection.refreshToken) return { status: 'ended' };
  let refreshed: Connection;
  try {
    refreshed = await bank.refresh(connection);
  } catch (error) {
    if (error instanceof client.ResponseBodyError || error instanceof client.WWWAuthenticateChallengeError) return { status: 'ended' };
    throw error;
  }
  const second = await readOnce(bank, refreshed);
  if (second === 'invalid_token') return { status: 'ended' };
  return { status: 'read', reading: second, connection: refreshed };
}
