import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { loadBudgetAppKey } from './app-key.ts';
import { createBankClient } from './bank-client.ts';
import { formatDecimalDollars } from './fdx-view.ts';
import { readingPage } from './pages.ts';
import { readBudget } from './read-budget.ts';
import type { Connection } from './sessions.ts';

/**
 * Pennywise's reading against a bank that answers as RFC 6750 / RFC 9449 and FDX say, through the
 * real openid-client (its customFetch): what the app makes of a 401, a 403 and a refused refresh.
 * The bank's own side of these answers is the fdx and oauth tests'; the whole path is the journey's.
 */
const issuer = 'http://127.0.0.1:4999';

interface FakeBank {
  tokens: { valid: Set<string>; refreshable: Map<string, string> };
  transactionsScope: boolean;
  requests: string[];
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** The list names the account (wrapped, as FDX may); its details, flat, carry the balances. */
const listedChecking = { depositAccount: { accountId: 'acc-1', nickname: 'Everyday <b>checking</b>', accountNumberDisplay: '1234' } };
const checkingDetails = {
  accountId: 'acc-1',
  nickname: 'Everyday <b>checking</b>',
  accountNumberDisplay: '1234',
  currentBalance: 1234.5,
  availableBalance: 1200,
};
const lines = {
  transactions: [
    {
      depositTransaction: {
        transactionId: 't1',
        postedTimestamp: '2026-11-02T10:00:00Z',
        description: 'Corner Grocer',
        amount: 12.5,
        debitCreditMemo: 'DEBIT',
        status: 'POSTED',
      },
    },
    {
      depositTransaction: {
        transactionId: 't2',
        postedTimestamp: '2026-11-01T10:00:00Z',
        description: 'Salary',
        amount: 2000,
        debitCreditMemo: 'CREDIT',
        status: 'POSTED',
      },
    },
  ],
};

function fakeBankFetch(bank: FakeBank): client.CustomFetch {
  return async (url, options) => {
    const { pathname } = new URL(url);
    bank.requests.push(`${options.method} ${pathname}`);
    if (pathname === '/.well-known/oauth-authorization-server') {
      return json(200, {
        issuer,
        token_endpoint: `${issuer}/oauth/token`,
        authorization_endpoint: `${issuer}/oauth/auth`,
        scopes_supported: ['offline_access'],
      });
    }
    if (pathname === '/oauth/token') {
      const refreshToken = new URLSearchParams(String(options.body)).get('refresh_token') ?? '';
      const next = bank.tokens.refreshable.get(refreshToken);
      if (!next) return json(400, { error: 'invalid_grant', error_description: 'grant request is invalid' });
      bank.tokens.valid.add(next);
      return json(200, { access_token: next, token_type: 'DPoP', expires_in: 300, refresh_token: refreshToken, scope: 'fdx:accountdetailed:read' });
    }
    const token = new Headers(options.headers).get('authorization')?.replace(/^DPoP /, '') ?? '';
    if (!bank.tokens.valid.has(token)) return json(401, {}, { 'www-authenticate': 'DPoP error="invalid_token", error_description="invalid token provided"' });
    if (pathname === '/fdx/v6/accounts') return json(200, { accounts: [listedChecking] });
    if (pathname === '/fdx/v6/accounts/acc-1') return json(200, checkingDetails);
    if (pathname === '/fdx/v6/accounts/acc-1/transactions') {
      return bank.transactionsScope
        ? json(200, lines)
        : json(403, {}, { 'www-authenticate': 'DPoP error="insufficient_scope", scope="fdx:transactions:read"' });
    }
    return json(404, { code: 701, message: 'Account not found' });
  };
}

async function setUp(bank: FakeBank) {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), 'pennywise-'));
  const bankClient = createBankClient({ config: { publicUrl: issuer }, key: () => loadBudgetAppKey(dataDirectory), fetch: fakeBankFetch(bank) });
  const connection: Connection = {
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    dpopKeys: await client.randomDPoPKeyPair('ES256'),
    scopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
  };
  return { bankClient, connection };
}

describe('Pennywise reading from the bank', () => {
  it('shows the shared account with its balances and its transactions, signed and escaped', async () => {
    const bank: FakeBank = { tokens: { valid: new Set(['access-1']), refreshable: new Map() }, transactionsScope: true, requests: [] };
    const { bankClient, connection } = await setUp(bank);
    const outcome = await readBudget(bankClient, connection);
    if (outcome.status !== 'read') throw new Error('expected a reading');
    expect(outcome.reading.accounts[0]?.account).toEqual({
      accountId: 'acc-1',
      name: 'Everyday <b>checking</b>',
      numberDisplay: '1234',
      currentBalance: '$1,234.50',
      availableBalance: '$1,200.00',
    });
    const page = readingPage(outcome.reading).replace(/\s+/g, ' ');
    expect(page).toContain('Everyday &lt;b&gt;checking&lt;/b&gt;');
    expect(page).not.toContain('<b>checking');
    expect(page).toContain('Account ending 1234');
    expect(page).toContain('<td class="amount amount--out">-$12.50</td>');
    expect(page).toContain('<td class="amount amount--in">$2,000.00</td>');
    expect(page).toContain('Strongroom shares: Account details and balances, Transactions.');
  });

  it('says transactions were not shared when the bank answers 403 insufficient_scope for them', async () => {
    const bank: FakeBank = { tokens: { valid: new Set(['access-1']), refreshable: new Map() }, transactionsScope: false, requests: [] };
    const { bankClient, connection } = await setUp(bank);
    const outcome = await readBudget(bankClient, connection);
    expect(outcome.status === 'read' ? outcome.reading.accounts[0]?.transactions : outcome.status).toBe('not_shared');
  });

  it('an access token that no longer works is refreshed once, and the reading goes on with the new one', async () => {
    const bank: FakeBank = { tokens: { valid: new Set(), refreshable: new Map([['refresh-1', 'access-2']]) }, transactionsScope: true, requests: [] };
    const { bankClient, connection } = await setUp(bank);
    const outcome = await readBudget(bankClient, connection);
    expect(outcome.status).toBe('read');
    expect(outcome.status === 'read' ? outcome.connection.accessToken : undefined).toBe('access-2');
    expect(bank.requests.filter((request) => request === 'POST /oauth/token')).toHaveLength(1);
  });

  it('when the bank refuses the token and the refresh token too (a revoked consent), the access has ended', async () => {
    const bank: FakeBank = { tokens: { valid: new Set(), refreshable: new Map() }, transactionsScope: true, requests: [] };
    const { bankClient, connection } = await setUp(bank);
    expect(await readBudget(bankClient, connection)).toEqual({ status: 'ended' });
    expect(bank.requests).toEqual(['GET /.well-known/oauth-authorization-server', 'GET /fdx/v6/accounts', 'POST /oauth/token']);
  });

  it('formats FDX decimal amounts by their digits', () => {
    expect(formatDecimalDollars(0.1)).toBe('$0.10');
    expect(formatDecimalDollars('1234567.05')).toBe('$1,234,567.05');
    expect(formatDecimalDollars(12.5, true)).toBe('-$12.50');
    expect(formatDecimalDollars(-3)).toBe('-$3.00');
    expect(formatDecimalDollars(0, true)).toBe('$0.00');
    expect(formatDecimalDollars(undefined)).toBeUndefined();
  });
});
