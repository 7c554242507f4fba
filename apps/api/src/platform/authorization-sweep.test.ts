import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { unzipSync } from 'fflate';
import { beforeAll, expect, it } from 'vitest';
import { roleHas, staffRoles, type StaffPermission } from '@strongroom/contracts/staff.ts';
import type { Config } from '../config.ts';
import { buildTestApp, productionAppOptions } from '../test/app.ts';
import { addDays, calendarDayIn } from './business-calendar.ts';
import { cardKit } from '../test/cards.ts';
import type { TestBrowser } from '../test/client.ts';
import { describeEachDatabase } from '../test/databases.ts';
import { applyForLoan } from '../test/loans.ts';
import { passkeyFor, SoftwarePasskey, type CreationOptionsJSON } from '../test/passkeys.ts';
import { ownTransfer, type PayingCustomer } from '../test/payments.ts';
import { createTestStaff, staffBrowser } from '../test/staff.ts';
import { consentInForce, waitingConnectRequest } from '../test/connected-apps.ts';

/**
 * Who may call what: every route the server has, in one table (decision 038). The sweep below
 * reads the routes from the server itself (the OpenAPI document and, for the routes it hides,
 * Fastify's own route tree); a route without a line here fails the first test, and so does a
 * line without a route. Then every route is called with no session, as another customer with the
 * first customer's real ids, as every staff role and as a customer on the back office.
 *
 * - `public`: anyone, no session (signing up and in, health, the public settings, contact...).
 * - `sandbox`: the sandbox's developer tools (registered only when BANK_MODE=sandbox, app.ts).
 * - `loopback`: answers only on the loopback interface or with a token; anyone else gets 404.
 * - `customer`: a signed-in customer; `probe` puts the other customer's ids in the query or body.
 * - `owned`: a signed-in customer, on one of their own things named in the path (`resource`).
 * - `staff`: a staff session with `permission` (`signed-in`: any staff member).
 */
type Resource =
  | 'account'
  | 'card'
  | 'challenge'
  | 'file'
  | 'fundingSource'
  | 'loan'
  | 'message'
  | 'notification'
  | 'passkey'
  | 'payment'
  | 'securityEvent'
  | 'session'
  | 'transaction'
  | 'beneficiary'
  | 'scheduledPayment'
  | 'billPayee'
  | 'dispute'
  | 'connectRequest'
  | 'connectedApp';
type Ids = Record<Resource, string>;
/** A request's query string and body, made from the caller's own ids and the ids to try. */
type Shape = (own: Ids, tried: Ids) => { query?: string; body?: object };

type Access =
  | { access: 'public' }
  | { access: 'sandbox' }
  | { access: 'loopback' }
  | { access: 'customer'; query?: string; probe?: Shape; stream?: true }
  | { access: 'owned'; resource: Resource; shape?: Shape }
  | { access: 'staff'; permission: StaffPermission | 'signed-in' }
  /** A connected app's DPoP-bound access token (issue 38): no session of the bank's opens it; 401 with WWW-Authenticate: DPoP. */
  | { access: 'token' };

const open: Access = { access: 'public' };
const sandbox: Access = { access: 'sandbox' };
const customer: Access = { access: 'customer' };
const owned = (resource: Resource, shape?: Shape): Access => ({ access: 'owned', resource, ...(shape ? { shape } : {}) });
const staff = (permission: StaffPermission | 'signed-in'): Access => ({ access: 'staff', permission });
const token: Access = { access: 'token' };
const withBody =
  (body: object): Shape =>
  () => ({ body });

const routes: Record<string, Access> = {
  // Outside the API document: the web app's pages, the document itself and the metrics.
  'GET /': open,
  'GET /*': open,
  'GET /checkings.html': open,
  'GET /metrics': { access: 'loopback' },
  'GET /api/v1/openapi.json': open,
  'POST /internal/ops/{command}': { access: 'loopback' },

  'GET /api/v1/health': open,
  'GET /api/v1/ready': open,
  'GET /api/v1/settings/public': open,
  'POST /api/v1/contact': open,
  'POST /api/v1/auth/signup': open,
  'POST /api/v1/auth/signup/status': open,
  'POST /api/v1/auth/signup/resend': open,
  'POST /api/v1/auth/verify-email': open,
  'POST /api/v1/auth/login': open,
  'POST /api/v1/auth/logout': open,
  'POST /api/v1/auth/password-reset': open,
  'POST /api/v1/auth/password-reset/check': open,
  'POST /api/v1/auth/password-reset/complete': open,
  'POST /api/v1/auth/passkey/options': open,
  'POST /api/v1/auth/passkey': open,
  // A receipt's reference is its own proof: anyone holding the paper may check it (docs/product.md section 5).
  'GET /api/v1/receipts/verify/{reference}': open,

  'GET /api/v1/me': customer,
  'GET /api/v1/accounts': customer,
  'POST /api/v1/accounts': {
    access: 'customer',
    probe: (_own, tried) => ({
      body: { productId: '00000000-0000-4000-8000-00000000d004', fromAccountId: tried.account, openingDepositCents: 50_000, acceptDisclosure: true },
    }),
  },
  'POST /api/v1/accounts/{id}/close': owned('account', (own) => ({ body: { toAccountId: own.account } })),
  'PUT /api/v1/accounts/{id}/product': owned('account', withBody({ productId: '00000000-0000-4000-8000-00000000d002' })),
  'POST /api/v1/staff/customers/{id}/accounts': staff('accounts.manage'),
  'POST /api/v1/staff/accounts/{id}/close': staff('accounts.manage'),
  'PUT /api/v1/staff/accounts/{id}/product': staff('accounts.manage'),
  // Issue 35: the bank's books and the reconciliation (finance and admin).
  'GET /api/v1/staff/reports/trial-balance': staff('books.read'),
  'GET /api/v1/staff/reports/balance-sheet': staff('books.read'),
  'GET /api/v1/staff/reports/income-statement': staff('books.read'),
  'GET /api/v1/staff/books/days': staff('books.read'),
  'GET /api/v1/staff/books/accounts': staff('books.read'),
  'GET /api/v1/staff/books/adjustments': staff('books.read'),
  'POST /api/v1/staff/books/adjustments': staff('books.adjust'),
  'POST /api/v1/staff/books/adjustments/{id}/decision': staff('books.adjust'),
  'POST /api/v1/staff/reconciliation/statements': staff('reconciliation.manage'),
  'GET /api/v1/staff/reconciliation/statements': staff('reconciliation.manage'),
  'GET /api/v1/staff/reconciliation/exceptions': staff('reconciliation.manage'),
  'GET /api/v1/staff/reconciliation/exceptions/{id}': staff('reconciliation.manage'),
  'POST /api/v1/staff/reconciliation/exceptions/{id}/resolve': staff('reconciliation.manage'),
  'GET /api/v1/dashboard': customer,
  'POST /api/v1/onboarding/phone': customer,
  'POST /api/v1/onboarding/phone/resend': customer,
  'POST /api/v1/onboarding/phone/verify': customer,
  'GET /api/v1/onboarding/identity': customer,
  'POST /api/v1/onboarding/identity': customer,
  'POST /api/v1/onboarding/profile-photo': customer,
  'GET /api/v1/files/{fileId}': owned('file'),
  'POST /api/v1/transfers': {
    access: 'customer',
    probe: (own, tried) => ({ body: ownTransfer(tried.account, own.account, 100, 'Probe') }),
  },
  'GET /api/v1/transfers': { access: 'customer', query: 'status=pending' },
  'GET /api/v1/transfers/{id}': owned('payment'),
  'POST /api/v1/deposits': {
    access: 'customer',
    probe: (_own, tried) => ({ body: { accountId: tried.account, amountCents: 100, reason: 'Probe', fundingSourceId: tried.fundingSource } }),
  },
  'POST /api/v1/withdrawals': {
    access: 'customer',
    probe: (_own, tried) => ({
      body: {
        fromAccountId: tried.account,
        amountCents: 100,
        country: 'US',
        nameOfBank: 'Bank',
        accountName: 'Probe',
        accountNumber: '12345678',
        stateName: 'Ohio',
        bankAddress: '1 Main St',
        routeNumber: '011000015',
      },
    }),
  },
  'POST /api/v1/transfers/payee-check': customer,
  'GET /api/v1/funding-sources': customer,
  'POST /api/v1/funding-sources': customer,
  'POST /api/v1/funding-sources/{id}/verify': owned('fundingSource', withBody({ amountsCents: [12, 34] })),
  'DELETE /api/v1/funding-sources/{id}': owned('fundingSource'),
  'POST /api/v1/step-up/{challengeId}': owned('challenge', withBody({ code: '123456' })),
  'POST /api/v1/step-up/{challengeId}/resend': owned('challenge'),
  'POST /api/v1/step-up/{challengeId}/passkey/options': owned('challenge'),
  'POST /api/v1/step-up/{challengeId}/passkey': owned('challenge', () => ({ body: { response: strangerAssertion() } })),
  'GET /api/v1/me/sessions': customer,
  'DELETE /api/v1/me/sessions/{id}': owned('session'),
  'POST /api/v1/me/sessions/revoke-others': customer,
  'POST /api/v1/me/password': customer,
  'GET /api/v1/me/totp': customer,
  'POST /api/v1/me/totp': customer,
  'DELETE /api/v1/me/totp': customer,
  'POST /api/v1/me/totp/confirm': customer,
  'GET /api/v1/me/passkeys': customer,
  'POST /api/v1/me/passkeys': customer,
  'POST /api/v1/me/passkeys/registration/options': customer,
  'PATCH /api/v1/me/passkeys/{id}': owned('passkey', withBody({ name: 'Taken over' })),
  'DELETE /api/v1/me/passkeys/{id}': owned('passkey'),
  'GET /api/v1/transactions': { access: 'customer', probe: (_own, tried) => ({ query: `accountId=${tried.account}` }) },
  'GET /api/v1/transactions/{id}': owned('transaction'),
  'GET /api/v1/transactions/{id}/receipt': owned('transaction'),
  'GET /api/v1/accounts/{id}/statement': owned('account', () => ({ query: 'from=2026-01-01&to=2026-12-31&format=csv' })),
  'GET /api/v1/accounts/{id}/statement/months': owned('account'),
  'GET /api/v1/accounts/{id}/statements': owned('account'),
  'GET /api/v1/accounts/{id}/statements/{statementId}': owned('account', () => ({ query: 'format=csv' })),
  'GET /api/v1/beneficiaries': customer,
  'POST /api/v1/beneficiaries': customer,
  'DELETE /api/v1/beneficiaries/{id}': owned('beneficiary'),
  'GET /api/v1/notifications': customer,
  'POST /api/v1/notifications/read': customer,
  'DELETE /api/v1/notifications/{id}': owned('notification'),
  // A live stream of topic names for the session's own customer; it never ends, so it is not read as another customer.
  'GET /api/v1/events': { access: 'customer', stream: true },
  'GET /api/v1/cards': customer,
  'POST /api/v1/cards': customer,
  'GET /api/v1/cards/{id}': owned('card'),
  'DELETE /api/v1/cards/{id}': owned('card'),
  'POST /api/v1/cards/{id}/freeze': owned('card'),
  'POST /api/v1/cards/{id}/unfreeze': owned('card'),
  'PUT /api/v1/cards/{id}/limits': owned('card', withBody({ perTransactionLimitCents: 10_000, monthlyLimitCents: 100_000 })),
  'POST /api/v1/cards/{id}/reveal': owned('card'),
  'GET /api/v1/cards/{id}/reveals': owned('card'),
  'GET /api/v1/cards/{id}/transactions': owned('card'),
  'POST /api/v1/cards/{id}/payments': owned('card', (own) => ({ body: { fromAccountId: own.account, amountCents: 100 } })),
  'GET /api/v1/me/export': customer,
  'POST /api/v1/loans': customer,
  'GET /api/v1/loans': customer,
  'GET /api/v1/loans/{id}': owned('loan'),
  'POST /api/v1/loans/{id}/repayments': owned('loan', (own) => ({ body: { fromAccountId: own.account, amountCents: 100 } })),
  'GET /api/v1/loans/{id}/schedule.csv': owned('loan'),
  'GET /api/v1/loans/{id}/schedule.pdf': owned('loan'),
  'POST /api/v1/loans/{id}/accept': owned('loan'),
  'POST /api/v1/loans/{id}/decline': owned('loan'),
  'GET /api/v1/me/preferences': customer,
  'PUT /api/v1/me/preferences': customer,
  'GET /api/v1/me/contact': customer,
  'POST /api/v1/me/email-change': customer,
  'POST /api/v1/me/email-change/confirm': customer,
  'POST /api/v1/me/phone-change': customer,
  'POST /api/v1/me/phone-change/confirm': customer,
  'PUT /api/v1/me/address': customer,
  'GET /api/v1/me/referral': customer,
  'GET /api/v1/me/referrals': customer,
  'GET /api/v1/messages': customer,
  'POST /api/v1/messages': customer,
  'GET /api/v1/messages/{id}': owned('message'),
  'POST /api/v1/messages/{id}/replies': owned('message', withBody({ text: 'Not yours' })),
  'GET /api/v1/me/security-events': customer,
  'POST /api/v1/me/security-events/{id}/not-me': owned('securityEvent', withBody({})),

  'GET /api/v1/dev/outbox': sandbox,
  'POST /api/v1/dev/card-network/authorizations': sandbox,
  'POST /api/v1/dev/card-network/authorizations/{id}/clear': sandbox,
  'POST /api/v1/dev/card-network/authorizations/{id}/reverse': sandbox,
  'GET /api/v1/dev/staff-sign-in': sandbox,
  // Issue 38: the sandbox's fictional budgeting app (Pennywise), a third party with no session of the bank's.
  'GET /sandbox/budget-app': sandbox,
  'GET /sandbox/budget-app/': sandbox,
  'GET /sandbox/budget-app/styles.css': sandbox,
  'POST /sandbox/budget-app/start': sandbox,
  'GET /sandbox/budget-app/callback': sandbox,
  'GET /sandbox/budget-app/refresh': sandbox,

  'POST /api/v1/staff/auth/login': open,
  'POST /api/v1/staff/auth/logout': open,
  'GET /api/v1/staff/me': staff('signed-in'),
  'POST /api/v1/staff/me/password': staff('signed-in'),
  'GET /api/v1/staff/members': staff('staff.manage'),
  'POST /api/v1/staff/members': staff('staff.manage'),
  'POST /api/v1/staff/members/{id}/disable': staff('staff.manage'),
  'POST /api/v1/staff/members/{id}/enable': staff('staff.manage'),
  'POST /api/v1/staff/members/{id}/role': staff('staff.manage'),
  'POST /api/v1/staff/members/{id}/reset-second-factor': staff('staff.manage'),
  'GET /api/v1/staff/identity-reviews': staff('identity.decide'),
  'GET /api/v1/staff/identity-reviews/{id}': staff('identity.decide'),
  'GET /api/v1/staff/identity-reviews/{id}/document': staff('identity.decide'),
  'GET /api/v1/staff/identity-reviews/{id}/profile-photo': staff('identity.decide'),
  'POST /api/v1/staff/identity-reviews/{id}/id-number': staff('identity.decide'),
  'POST /api/v1/staff/identity-reviews/{id}/decision': staff('identity.decide'),
  'POST /api/v1/staff/referral-bonuses/{id}/decision': staff('identity.decide'),
  'GET /api/v1/staff/held-transfers': staff('transfers.review'),
  'GET /api/v1/staff/held-transfers/{id}': staff('transfers.review'),
  'POST /api/v1/staff/held-transfers/{id}/decision': staff('transfers.review'),
  'GET /api/v1/staff/messages': staff('messages.reply'),
  'POST /api/v1/staff/messages/{id}/reply': staff('messages.reply'),
  'GET /api/v1/staff/payments': staff('payments.settle'),
  'GET /api/v1/staff/payments/ach-file': staff('payments.settle'),
  'GET /api/v1/staff/customers': staff('customers.read'),
  'GET /api/v1/staff/customers/{id}': staff('customers.read'),
  'POST /api/v1/staff/customers/{id}/freeze': staff('customers.freeze'),
  'POST /api/v1/staff/customers/{id}/unfreeze': staff('customers.freeze'),
  'POST /api/v1/staff/customers/{id}/sessions/end-all': staff('customers.freeze'),
  'POST /api/v1/staff/customers/{id}/sessions/{sessionId}/end': staff('customers.freeze'),
  'PUT /api/v1/staff/customers/{id}/contact': staff('customers.correct'),
  'GET /api/v1/staff/settings': staff('signed-in'),
  'PUT /api/v1/staff/settings': staff('settings.edit'),
  'GET /api/v1/staff/audit': staff('audit.read'),
  'GET /api/v1/staff/audit.csv': staff('audit.read'),
  'GET /api/v1/staff/cards': staff('cards.decide'),
  'POST /api/v1/staff/cards/{id}/decision': staff('cards.decide'),
  'GET /api/v1/staff/loans': staff('loans.decide'),
  'POST /api/v1/staff/loans/{id}/decision': staff('loans.decide'),
  'POST /api/v1/staff/card-simulator/authorizations': staff('payments.settle'),
  'GET /api/v1/staff/card-simulator/authorizations': staff('payments.settle'),
  'POST /api/v1/staff/card-simulator/authorizations/{id}/clear': staff('payments.settle'),
  'POST /api/v1/staff/card-simulator/authorizations/{id}/reverse': staff('payments.settle'),
  'GET /api/v1/products': open,
  'GET /api/v1/calendar/business-days': open,
  'GET /api/v1/calendar/today': open,
  'GET /api/v1/staff/products': staff('products.edit'),
  'POST /api/v1/staff/products/{id}/terms': staff('products.edit'),
  'GET /api/v1/staff/customers/{id}/fees': staff('fees.refund'),
  'POST /api/v1/staff/fees/{id}/refund': staff('fees.refund'),
  'POST /api/v1/staff/fee-refunds/{id}/approve': staff('fees.refund'),
  'POST /api/v1/staff/fee-refunds/{id}/reject': staff('fees.refund'),
  'GET /api/v1/billers': customer,
  'GET /api/v1/staff/billers': staff('billers.manage'),
  'POST /api/v1/staff/billers': staff('billers.manage'),
  'PUT /api/v1/staff/billers/{id}': staff('billers.manage'),
  'GET /api/v1/staff/data-recipients': staff('connected_apps.manage'),
  'GET /api/v1/staff/data-recipients/{id}': staff('connected_apps.manage'),
  'POST /api/v1/staff/data-recipients': staff('connected_apps.manage'),
  'PUT /api/v1/staff/data-recipients/{id}': staff('connected_apps.manage'),
  'POST /api/v1/staff/data-recipients/{id}/disable': staff('connected_apps.manage'),
  'POST /api/v1/staff/data-recipients/{id}/enable': staff('connected_apps.manage'),
  // Issue 38: the authorization server (OAuth 2.0, its own client authentication) and the consent page's API.
  'GET /oauth/{*}': open,
  'POST /oauth/{*}': open,
  'GET /.well-known/oauth-authorization-server': open,
  'GET /.well-known/openid-configuration': open,
  'GET /api/v1/connect/requests/{uid}': owned('connectRequest'),
  'POST /api/v1/connect/requests/{uid}/approve': owned('connectRequest', (own) => ({
    body: { accountIds: [own.account], scopes: ['fdx:transactions:read'], days: 30 },
  })),
  'POST /api/v1/connect/requests/{uid}/refuse': owned('connectRequest'),
  'GET /api/v1/me/connected-apps': customer,
  'DELETE /api/v1/me/connected-apps/{consentId}': owned('connectedApp'),
  // The FDX resource API: a connected app's token and its proof, never a session.
  'GET /fdx/v6/accounts': token,
  'GET /fdx/v6/accounts/{accountId}': token,
  'GET /fdx/v6/accounts/{accountId}/transactions': token,
  'GET /fdx/v6/accounts/{accountId}/statements': token,
  'GET /fdx/v6/accounts/{accountId}/statements/{statementId}': token,
  'GET /fdx/v6/accounts/{accountId}/contact': token,
  'GET /api/v1/bill-payees': customer,
  'POST /api/v1/bill-payees': customer,
  'DELETE /api/v1/bill-payees/{id}': owned('billPayee'),
  'POST /api/v1/scheduled-payments': customer,
  'GET /api/v1/scheduled-payments': customer,
  'GET /api/v1/scheduled-payments/upcoming': customer,
  'GET /api/v1/scheduled-payments/{id}': owned('scheduledPayment'),
  'PUT /api/v1/scheduled-payments/{id}': owned('scheduledPayment'),
  'DELETE /api/v1/scheduled-payments/{id}': owned('scheduledPayment'),
  'POST /api/v1/scheduled-payments/{id}/skip': owned('scheduledPayment'),
  // Issue 34 item 3: the back office's disputes.
  'GET /api/v1/staff/disputes': staff('disputes.manage'),
  'GET /api/v1/staff/disputes/{id}': staff('disputes.manage'),
  'GET /api/v1/staff/disputes/{id}/letters/{letterId}': staff('disputes.manage'),
  'GET /api/v1/staff/disputes/{id}/evidence/{evidenceId}': staff('disputes.manage'),
  'POST /api/v1/staff/disputes/{id}/investigate': staff('disputes.manage'),
  'POST /api/v1/staff/disputes/{id}/provisional-credit': staff('disputes.manage'),
  'POST /api/v1/staff/disputes/{id}/request-information': staff('disputes.manage'),
  'POST /api/v1/staff/disputes/{id}/decision': staff('disputes.manage'),
  'POST /api/v1/staff/disputes/{id}/decision/approve': staff('disputes.manage'),
  'POST /api/v1/disputes': {
    access: 'customer',
    probe: (_own, tried) => ({ body: { transferId: tried.payment, reason: 'unauthorized', description: 'I did not make this payment, probe.' } }),
  },
  'GET /api/v1/disputes': customer,
  'GET /api/v1/disputes/{id}': owned('dispute'),
  'GET /api/v1/disputes/{id}/letters/{letterId}': owned('dispute'),
  'POST /api/v1/disputes/{id}/withdraw': owned('dispute'),
  'POST /api/v1/disputes/{id}/information': owned('dispute', withBody({ text: 'Here is what happened, probe.' })),
  'POST /api/v1/disputes/{id}/evidence': owned('dispute'),
  'GET /api/v1/disputes/{id}/evidence/{evidenceId}': owned('dispute'),
};

/** Tables where a wrong caller's success would leave a row: none may gain or lose one during the sweep. */
const guardedTables = [
  'ledger_transfers',
  'payments',
  'customer_accounts',
  'customer_freezes',
  'cards',
  'card_payments',
  'card_reveals',
  'card_authorizations',
  'loans',
  'loan_repayments',
  'beneficiaries',
  'bill_payees',
  'funding_sources',
  'micro_deposits',
  'passkeys',
  'secure_message_threads',
  'secure_message_posts',
  'security_event_reports',
  'identity_reviews',
  'fee_refunds',
  'deposit_product_terms',
  'scheduled_payments',
  'scheduled_payment_occurrences',
  'disputes',
  'dispute_events',
  'dispute_evidence',
] as const;

const unknownId = '00000000-0000-4000-8000-0000000000aa';
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id of the same shape as `id` that names nothing. */
function missingLike(id: string): string {
  if (uuidPattern.test(id)) return randomUUID();
  if (/^\d+$/.test(id)) return String(9_000_000_000 + randomInt(1_000_000));
  return id.replace(/[0-9]/g, () => String(randomInt(10))).replace(/[a-z]/gi, (c) => (c === 'z' ? 'y' : 'z'));
}

/** A well-formed passkey assertion from an authenticator nobody registered. */
function strangerAssertion() {
  return new SoftwarePasskey('http://localhost:3000', 'localhost').assert({ challenge: Buffer.from('no challenge given').toString('base64url') });
}

let nextAddress = 1;
/** Each request from its own address, so the per-address limits (sign-in, sign-up, contact) stay out of the way. */
const freshAddress = () => `203.0.${Math.floor(nextAddress / 250) % 250}.${(nextAddress++ % 250) + 1}`;

interface Route {
  key: string;
  method: string;
  path: string;
  rule: Access;
}

/**
 * The routes Fastify has, from its own tree (`printRoutes` with every prefix written out),
 * OpenAPI-style: `/a/:id` is `/a/{id}`. HEAD is left out: Fastify answers it with the GET's handler.
 */
function serverRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const found: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ├└─]*?)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('').replace(/:(\w+)/g, '{$1}');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') found.push(`${method} ${path}`);
    }
  }
  return found;
}

function documentRoutes(paths: Record<string, Record<string, unknown>>): string[] {
  return Object.entries(paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
}

function fill(path: string, id: (name: string) => string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(id(name))).replace('/*', '/some/page');
}

/** A path segment with its first character percent-encoded: `api` becomes `%61pi`. */
function encodeFirstCharacter(segment: string): string {
  return `%${segment.charCodeAt(0).toString(16).padStart(2, '0')}${segment.slice(1)}`;
}

/**
 * Two spellings of an API path that the router decodes back to it: the `/api/` prefix encoded
 * (`/%61pi/v1/transfers`), which a test of the raw URL's prefix misses, and the segment after the
 * version encoded (`/api/v1/%73taff/members`), which a test of the raw URL's realm misses.
 */
function encodedSpellings(url: string): string[] {
  const segments = url.split('/');
  const apiSegment = 1;
  const featureSegment = 3;
  return [apiSegment, featureSegment].map((encoded) =>
    segments.map((segment, index) => (index === encoded ? encodeFirstCharacter(segment) : segment)).join('/'),
  );
}

/** An answer as a caller sees it, without the request id that differs on every call. */
function visible(response: LightMyRequestResponse) {
  const type = String(response.headers['content-type'] ?? '');
  const body = type.includes('json') ? (JSON.parse(response.body) as unknown) : response.body;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value)
          // A step-up answer names a new challenge each time: its presence is compared, not its id.
          .map(([key, item]) => [key, key === 'requestId' || key === 'challengeId' ? '<varies>' : strip(item)]),
      );
    return value;
  };
  return { status: response.statusCode, type, body: strip(body) };
}

/** An answer's text; a zip (the data export) is read file by file. */
function readable(response: LightMyRequestResponse): string {
  if (!String(response.headers['content-type'] ?? '').includes('zip')) return response.body;
  const files = unzipSync(new Uint8Array(response.rawPayload));
  return Object.values(files)
    .map((file) => Buffer.from(file).toString('utf8'))
    .join('\n');
}

describeEachDatabase('authorization sweep: every route, every kind of caller', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let all: Route[];
  let alice: PayingCustomer;
  let bob: PayingCustomer;
  let aliceIds: Ids;
  let bobIds: Ids;
  /** Everything of Alice's that Bob must never see: her ids and account numbers. */
  let aliceSecrets: string[];
  let aliceBefore: unknown;
  let countsBefore: Record<string, number>;
  const kit = cardKit(() => ({ app, config, db: database() }));

  const call = (who: TestBrowser | undefined, method: string, url: string, body?: object) => {
    const options = {
      method,
      url,
      remoteAddress: freshAddress(),
      ...(method === 'GET' ? {} : { payload: body ?? {}, headers: { 'idempotency-key': randomUUID() } }),
    };
    return who ? who.request(options) : app.inject(options);
  };

  async function rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of guardedTables) {
      const [row] = await database().query<{ count: number }>(`SELECT count(*)::integer AS count FROM ${table}`);
      counts[table] = row?.count ?? -1;
    }
    return counts;
  }

  /** What Alice can read of her own things: the same before and after every sweep. */
  async function aliceState() {
    const read = async (url: string) => {
      const response = await alice.browser.get(url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.json<unknown>();
    };
    const sessions = (await read('/api/v1/me/sessions')) as { items?: { id: string }[] } | { id: string }[];
    return {
      accounts: await read('/api/v1/accounts'),
      card: await read(`/api/v1/cards/${aliceIds.card}`),
      loan: await read(`/api/v1/loans/${aliceIds.loan}`),
      beneficiaries: await read('/api/v1/beneficiaries'),
      billPayees: await read('/api/v1/bill-payees'),
      dispute: await read(`/api/v1/disputes/${aliceIds.dispute}`),
      fundingSources: await read('/api/v1/funding-sources'),
      passkeys: await read('/api/v1/me/passkeys'),
      notifications: await read('/api/v1/notifications'),
      message: await read(`/api/v1/messages/${aliceIds.message}`),
      sessions: (Array.isArray(sessions) ? sessions : (sessions.items ?? [])).map((session) => session.id).sort(),
      transactions: await read('/api/v1/transactions'),
      connectedApps: await read('/api/v1/me/connected-apps'),
    };
  }

  /** The first id of a list the customer reads, whether the answer is an array or `{ items }`. */
  async function firstId(who: PayingCustomer, url: string): Promise<string> {
    const response = await who.browser.get(url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    const body = response.json<{ id: string }[] | { items?: { id: string | number }[] }>();
    const id = (Array.isArray(body) ? body[0]?.id : body.items?.[0]?.id)?.toString();
    if (!id) throw new Error(`no id in ${url}: ${response.body}`);
    return id;
  }

  /** Gives `who` one of every kind of thing a path can name, through the routes, and returns their ids. */
  async function furnish(who: PayingCustomer): Promise<Ids> {
    const db = database();
    const card = await kit.activeCard(who);
    const external = await kit.payWithStepUp(who, '/transfers', {
      kind: 'external',
      fromAccountId: who.checking.id,
      toAccountNumber: '12345678',
      accountName: 'Ada Lovelace',
      amountCents: 1_000,
      routeNumber: '011000015',
      nameOfBank: 'First Example Bank',
      nameOfCountry: 'United States',
      message: 'Rent',
    });
    expect(external.statusCode, external.body).toBe(201);
    const beneficiary = await who.browser.post('/api/v1/beneficiaries', {
      bankName: 'Bletchley Savings',
      accountName: 'Ada Lovelace',
      accountNumber: '12345678',
      nameOfCountry: 'United Kingdom',
      routeNumber: '011000015',
      bankType: 'otherbank',
    });
    expect(beneficiary.statusCode, beneficiary.body).toBe(201);
    // A bill payee, at a biller of the directory (issue 33).
    const billerId = randomUUID();
    await db.query(
      `INSERT INTO billers (id, name, category, account_number_pattern, account_number_example, payment_method, routing_number, account_number)
       VALUES ($1, 'Sweep Water Works', 'water', '\\d{10}', '1234567890', 'ach', '011000015', '4002008100')`,
      [billerId],
    );
    const billPayee = await who.browser.post('/api/v1/bill-payees', { billerId, accountNumber: '5550004821', nickname: 'Water' });
    expect(billPayee.statusCode, billPayee.body).toBe(201);
    const loan = await applyForLoan(who.browser);
    expect(loan.statusCode, loan.body).toBe(201);
    const message = await who.browser.post('/api/v1/messages', { subject: 'My card', text: 'Where is my card?' });
    expect(message.statusCode, message.body).toBe(201);

    // A passkey, added behind the SMS step-up as the web does.
    const asked = await who.browser.post('/api/v1/me/passkeys/registration/options');
    expect(asked.statusCode, asked.body).toBe(403);
    const registrationChallenge = asked.json<{ error: { challengeId: string } }>().error.challengeId;
    await kit.verifyLatestCode(who, registrationChallenge);
    const options = await who.browser.request({
      method: 'POST',
      url: '/api/v1/me/passkeys/registration/options',
      headers: { 'x-step-up': registrationChallenge },
    });
    expect(options.statusCode, options.body).toBe(200);
    const passkey = await who.browser.post('/api/v1/me/passkeys', {
      name: 'Laptop',
      response: passkeyFor(config.publicUrl).register(options.json<{ options: CreationOptionsJSON }>().options),
    });
    expect(passkey.statusCode, passkey.body).toBe(201);

    // A challenge left open: a card reveal asks for one.
    const reveal = await who.browser.post(`/api/v1/cards/${card.id}/reveal`);
    expect(reveal.statusCode, reveal.body).toBe(403);

    // A monthly transfer to savings, a week ahead (no step-up: the customer's own accounts).
    const scheduled = await who.browser.request({
      method: 'POST',
      url: '/api/v1/scheduled-payments',
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        payment: ownTransfer(who.checking.id, who.savings.id, 1_000, 'Savings'),
        startDate: addDays(calendarDayIn(config.bankTimeZone, new Date()), 7),
        frequency: 'monthly',
      },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);

    // A request to connect an app, waiting on the consent page in this customer's browser (issue 38).
    const connectRequest = await waitingConnectRequest(app, db, who.browser);
    const connectedApp = await consentInForce(app, db, who.id, who.checking.id);

    // A dispute of the transfer out (issue 34).
    const payment = await firstId(who, '/api/v1/transfers?status=pending');
    const dispute = await who.browser.post('/api/v1/disputes', {
      transferId: payment,
      reason: 'not_received',
      description: 'The rent never reached my landlord.',
    });
    expect(dispute.statusCode, dispute.body).toBe(201);

    const [file] = await db.query<{ id: string }>('SELECT profile_photo_file_id AS id FROM customers WHERE id = $1', [who.id]);
    return {
      account: who.checking.id,
      card: card.id,
      challenge: reveal.json<{ error: { challengeId: string } }>().error.challengeId,
      file: file?.id ?? '',
      fundingSource: who.fundingSourceId,
      loan: loan.json<{ loan: { id: string } }>().loan.id,
      message: await firstId(who, '/api/v1/messages'),
      notification: await firstId(who, '/api/v1/notifications'),
      passkey: passkey.json<{ passkey: { id: string } }>().passkey.id,
      payment,
      securityEvent: await firstId(who, '/api/v1/me/security-events'),
      session: await firstId(who, '/api/v1/me/sessions'),
      transaction: await firstId(who, '/api/v1/transactions'),
      beneficiary: beneficiary.json<{ beneficiary: { id: string } }>().beneficiary.id,
      scheduledPayment: scheduled.json<{ schedule: { id: string } }>().schedule.id,
      billPayee: billPayee.json<{ payee: { id: string } }>().payee.id,
      dispute: dispute.json<{ dispute: { id: string } }>().dispute.id,
      connectRequest,
      connectedApp,
    };
  }

  beforeAll(async () => {
    ({ app, config } = await buildTestApp(database(), { dependencies: { opsToken: 'sweep-ops-token-0123456789abcdef' } }));
    const paths = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{ paths: Record<string, Record<string, unknown>> }>().paths;
    const keys = [...new Set([...documentRoutes(paths), ...serverRoutes(app)])].sort();
    all = keys.map((key) => {
      const [method = '', path = ''] = key.split(' ');
      return { key, method, path, rule: routes[key] ?? open };
    });
    alice = await kit.customer();
    bob = await kit.customer();
    aliceIds = await furnish(alice);
    bobIds = await furnish(bob);
    // A short numeric id (a security event's) would match any number in an answer: ids are scanned from 8 characters.
    aliceSecrets = [...Object.values(aliceIds), alice.id, alice.savings.id, alice.checking.number, alice.savings.number].filter((secret) => secret.length >= 8);
    aliceBefore = await aliceState();
    countsBefore = await rowCounts();
  }, 120_000);

  it('has exactly one line for every route the server has, the hidden ones included', () => {
    const keys = all.map((route) => route.key);
    expect(keys.length).toBeGreaterThan(130);
    expect(
      keys.filter((key) => !(key in routes)),
      'routes without a line in the table',
    ).toEqual([]);
    expect(
      Object.keys(routes).filter((key) => !keys.includes(key)),
      'lines without a route',
    ).toEqual([]);
  });

  it('has no route in production that the table lacks, and none of the sandbox tools', async () => {
    const production = await buildTestApp(database(), productionAppOptions(database(), { dependencies: { opsToken: 'sweep-ops-token-0123456789abcdef' } }));
    try {
      const keys = serverRoutes(production.app);
      expect(keys.length).toBeGreaterThan(120);
      expect(keys.filter((key) => !(key in routes))).toEqual([]);
      const sandboxOnly = Object.entries(routes).filter(([, rule]) => rule.access === 'sandbox');
      expect(sandboxOnly.length).toBeGreaterThan(0);
      expect(sandboxOnly.map(([key]) => key).filter((key) => keys.includes(key))).toEqual([]);
    } finally {
      await production.app.close();
    }
  });

  it('answers 401 unauthenticated to a caller with no session on every route but the public ones', async () => {
    const wrong: string[] = [];
    for (const { key, method, path, rule } of all) {
      const response = await call(
        undefined,
        method,
        fill(path, () => unknownId),
      );
      const guarded = rule.access === 'customer' || rule.access === 'owned' || rule.access === 'staff';
      if (guarded) {
        const code = response.statusCode === 401 ? response.json<{ error: { code: string } }>().error.code : undefined;
        if (code !== 'unauthenticated') wrong.push(`${key}: ${response.statusCode} ${response.body.slice(0, 120)}`);
      } else if (rule.access === 'loopback') {
        if (response.statusCode !== 404) wrong.push(`${key}: ${response.statusCode} from outside`);
      } else if (rule.access === 'token') {
        // Nor does a customer's own session open it: the bank's cookie is not a connected app's token.
        const withSession = await call(
          alice.browser,
          method,
          fill(path, () => aliceIds.account),
        );
        for (const answer of [response, withSession]) {
          const challenge = answer.headers['www-authenticate'];
          if (answer.statusCode !== 401 || typeof challenge !== 'string' || !challenge.startsWith('DPoP'))
            wrong.push(`${key} (token): ${answer.statusCode} ${challenge}`);
        }
      } else if (response.statusCode === 401 || response.statusCode === 403 || response.statusCode >= 500) {
        wrong.push(`${key} (public): ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("answers another customer's ids exactly as it answers ids that do not exist", async () => {
    const missing = Object.fromEntries(Object.entries(aliceIds).map(([kind, id]) => [kind, missingLike(id)])) as Ids;
    const wrong: string[] = [];
    let compared = 0;
    for (const { key, method, path, rule } of all) {
      let shape: Shape | undefined;
      let resource: Resource | undefined;
      if (rule.access === 'owned') ({ shape, resource } = rule);
      else if (rule.access === 'customer' && rule.probe) shape = rule.probe;
      else continue;
      const attempt = async (tried: Ids) => {
        const { query, body } = shape?.(bobIds, tried) ?? {};
        const url = `${fill(path, () => (resource ? tried[resource] : unknownId))}${query ? `?${query}` : ''}`;
        return call(bob.browser, method, url, body);
      };
      const theirs = await attempt(aliceIds);
      const nobodys = await attempt(missing);
      compared += 1;
      if (JSON.stringify(visible(theirs)) !== JSON.stringify(visible(nobodys))) {
        wrong.push(`${key}: Alice's ${theirs.statusCode} ${theirs.body.slice(0, 160)} | missing ${nobodys.statusCode} ${nobodys.body.slice(0, 160)}`);
      } else if (theirs.statusCode < 400 && rule.access === 'owned') {
        wrong.push(`${key}: ${theirs.statusCode} on Alice's ${resource}`);
      }
      const leaked = aliceSecrets.filter((secret) => theirs.body.includes(secret));
      if (leaked.length > 0) wrong.push(`${key}: the answer holds Alice's ${leaked.join(', ')}`);
    }
    const probed = Object.values(routes).filter((rule) => rule.access === 'owned' || (rule.access === 'customer' && rule.probe)).length;
    expect(compared).toBe(probed);
    expect(wrong).toEqual([]);
  });

  it("shows another customer nothing of Alice's in any list, page or export", async () => {
    const wrong: string[] = [];
    let scanned = 0;
    for (const { key, method, path, rule } of all) {
      if (rule.access !== 'customer' || method !== 'GET' || rule.stream) continue;
      const response = await call(bob.browser, method, `${path}${rule.query ? `?${rule.query}` : ''}`);
      scanned += 1;
      if (response.statusCode !== 200) wrong.push(`${key}: ${response.statusCode} for Bob himself`);
      const text = readable(response);
      const leaked = aliceSecrets.filter((secret) => text.includes(secret));
      if (leaked.length > 0) wrong.push(`${key}: Bob's answer holds Alice's ${leaked.join(', ')}`);
    }
    // Bob's own lists are not empty: the scan reads real pages, not empty ones.
    const own = readable(await bob.browser.get('/api/v1/me/export'));
    for (const id of [bobIds.card, bob.checking.id, bob.checking.number]) expect(own).toContain(id);
    expect(scanned).toBeGreaterThan(15);
    expect(wrong).toEqual([]);
  });

  it('answers 401 to a customer session on every back-office route', async () => {
    const wrong: string[] = [];
    for (const { key, method, path, rule } of all) {
      if (rule.access !== 'staff') continue;
      const response = await call(
        alice.browser,
        method,
        fill(path, () => unknownId),
      );
      if (response.statusCode !== 401) wrong.push(`${key}: ${response.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(staffRoles)(
    'role %s: 401 on every customer route; 403 forbidden (audited) on a back-office route without its permission, neither 401 nor 403 with it',
    async (role) => {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      const wrong: string[] = [];
      let refused = 0;
      for (const { key, method, path, rule } of all) {
        if (rule.access !== 'staff' && rule.access !== 'customer' && rule.access !== 'owned') continue;
        // Alice's real ids: a staff session must not open a customer's thing either.
        const url = fill(path, () => (rule.access === 'owned' ? aliceIds[rule.resource] : unknownId));
        if (rule.access === 'customer' && rule.stream) {
          const response = await call(browser, method, url);
          if (response.statusCode !== 401) wrong.push(`${key}: ${response.statusCode}`);
          continue;
        }
        const response = await call(browser, method, url);
        if (rule.access !== 'staff') {
          if (response.statusCode !== 401) wrong.push(`${key} (customer route): ${response.statusCode}`);
        } else if (rule.permission === 'signed-in' || roleHas(role, rule.permission)) {
          if (response.statusCode === 401 || response.statusCode === 403) wrong.push(`${key} (allowed): ${response.statusCode} ${response.body.slice(0, 120)}`);
        } else {
          refused += 1;
          const code = response.statusCode === 403 ? response.json<{ error: { code: string } }>().error.code : undefined;
          if (code !== 'forbidden') wrong.push(`${key} (refused): ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
      }
      expect(wrong).toEqual([]);
      const [audited] = await database().query<{ count: number }>(
        "SELECT count(*)::integer AS count FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1 AND outcome = 'denied'",
        [member.id],
      );
      expect(audited?.count).toBe(refused);
    },
  );

  it('refuses every unsafe API route of both realms, its path percent-encoded, to a live session without its CSRF token (403), and nothing changes', async () => {
    const { browser: admin } = await staffBrowser(app, database(), config, 'admin');
    // Another admin, named in the staff routes' paths: an encoded role change or disable must not reach them.
    const colleague = await createTestStaff(database(), config, 'admin');
    const staffRow = async () => (await database().query('SELECT role, disabled_at FROM staff WHERE id = $1', [colleague.id]))[0];
    const colleagueBefore = await staffRow();
    const countsBeforeProbe = await rowCounts();
    const [rejectedBefore] = await database().query<{ count: number }>("SELECT count(*)::integer AS count FROM audit_log WHERE action = 'csrf.rejected'");
    const wrong: string[] = [];
    let sent = 0;
    for (const { key, method, path, rule } of all) {
      if (method === 'GET' || !path.startsWith('/api/')) continue;
      const staffRoute = path.startsWith('/api/v1/staff/');
      const url = fill(path, () => (rule.access === 'owned' ? aliceIds[rule.resource] : staffRoute ? colleague.id : unknownId));
      // Alice's own things and bodies that would act on them: a request that got through would show.
      const body =
        rule.access === 'owned' ? rule.shape?.(aliceIds, aliceIds).body : rule.access === 'customer' ? rule.probe?.(aliceIds, aliceIds).body : undefined;
      const staffBody = { role: 'support', reason: 'Encoded path probe' };
      for (const spelling of encodedSpellings(url)) {
        const response = await app.inject({
          method,
          url: spelling,
          remoteAddress: freshAddress(),
          cookies: staffRoute ? { staff_session: admin.cookies.staff_session ?? '' } : { session: alice.browser.cookies.session ?? '' },
          payload: (staffRoute ? staffBody : body) ?? {},
          headers: { 'idempotency-key': randomUUID() },
        });
        sent += 1;
        const error = response.statusCode === 403 ? response.json<{ error: { code: string; message: string } }>().error : undefined;
        if (error?.code !== 'forbidden' || !error.message.includes('CSRF'))
          wrong.push(`${key} as ${spelling}: ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(2 * 70);
    const [rejectedAfter] = await database().query<{ count: number }>("SELECT count(*)::integer AS count FROM audit_log WHERE action = 'csrf.rejected'");
    expect((rejectedAfter?.count ?? 0) - (rejectedBefore?.count ?? 0)).toBe(sent);
    expect(await staffRow()).toEqual(colleagueBefore);
    expect(await rowCounts()).toEqual(countsBeforeProbe);
    expect(await aliceState()).toEqual(aliceBefore);
    expect((await admin.get('/api/v1/staff/me')).statusCode).toBe(200);
  });

  it("leaves Alice's money and things exactly as they were after every sweep, no row made or removed, and the ledger balanced", async () => {
    expect(await aliceState()).toEqual(aliceBefore);
    expect(await rowCounts()).toEqual(countsBefore);
    await kit.expectLedgerConsistent();
  });
});
