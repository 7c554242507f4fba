import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errors, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { fundingSourceResponseSchema, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { csrfCookieName, csrfHeaderName, secureCsrfCookieName } from '@strongroom/contracts/http.ts';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { baseUrl, dataDirectory } from './browser.ts';
import { readOutbox, uniqueEmail, uniquePhoneNumber } from './identity.ts';

/** How long an ops command may take on a loaded machine (funding a customer is the slowest). */
const opsCommandTimeoutMs = 90_000;

/**
 * Money journeys need customers with money and, sometimes, a member of staff deciding a held
 * payment. Both go through the ops CLI's loopback door of the running sandbox server, exactly as
 * `npm run ops -- ...` does on that machine (docs/decisions/004).
 */
export async function runOps(command: string, args: string[]): Promise<{ exitCode: number; output: string }> {
  const lock = JSON.parse(await readFile(path.join(dataDirectory(), 'server.json'), 'utf8')) as { token: string };
  const response = await fetch(`${baseUrl()}/internal/ops/${command}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${lock.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ args }),
    // Bounded, so a command that never answers fails here by name, not at the journey's limit.
    signal: AbortSignal.timeout(opsCommandTimeoutMs),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { exitCode: number; output: string };
}

export interface FundedCustomer {
  email: string;
  password: string;
  /** E.164: where step-up codes go. */
  phone: string;
  firstName: string;
  lastName: string;
  accounts: { id: string; type: 'checking' | 'savings'; number: string }[];
}

/** An onboarded customer (verified, approved, accounts open) whose checking holds `fundCents`. */
export async function createFundedCustomer(label: string, fundCents: number, names: { firstName?: string; lastName?: string } = {}): Promise<FundedCustomer> {
  const email = uniqueEmail(label);
  const password = 'tangerine lighthouse drift';
  // Journeys share one server: a number of their own keeps each customer's step-up codes their own.
  const phone = uniquePhoneNumber().e164;
  const firstName = names.firstName ?? 'Casey';
  const lastName = names.lastName ?? 'Journey';
  const result = await runOps('create-customer', [
    '--email',
    email,
    '--password',
    password,
    '--phone',
    phone,
    '--first-name',
    firstName,
    '--last-name',
    lastName,
    '--fund-cents',
    String(fundCents),
  ]);
  expect(result.exitCode, result.output).toBe(0);
  const created = JSON.parse(result.output) as { accounts: FundedCustomer['accounts'] };
  return { email, password, phone, firstName, lastName, accounts: created.accounts };
}

export function accountOf(customer: FundedCustomer, type: 'checking' | 'savings'): FundedCustomer['accounts'][number] {
  const account = customer.accounts.find((item) => item.type === type);
  if (!account) throw new Error(`no ${type} account`);
  return account;
}

/** Signs in through the login page, as the customer would, and waits for the dashboard. */
export async function signIn(page: Page, customer: Pick<FundedCustomer, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

export const stepUpCodePattern = /\b(\d{6})\b/;

/**
 * The newest step-up code sent to the customer's phone. Pass the previous code when a journey
 * asks for a second one, so that the old message is not read while the new one is on its way.
 */
export async function readStepUpCode(customer: Pick<FundedCustomer, 'phone'>, previousCode?: string): Promise<string> {
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const [, code] = await readOutbox(customer.phone, stepUpCodePattern);
    if (code && code !== previousCode) return code;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('no new step-up code arrived');
}

/** The step-up dialog ("Confirm it's you") on `page`. */
export function stepUpDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Confirm it.s you$/ });
}

/** Types `code` into the step-up dialog's six digit boxes, as the customer would read it off their phone or app. */
export async function typeStepUpCode(page: Page, code: string): Promise<void> {
  await stepUpDialog(page).getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code);
}

/** Waits for the step-up dialog, reads the code the sandbox texted to `customer` and types it; returns the code. */
export async function answerStepUpBySms(page: Page, customer: Pick<FundedCustomer, 'phone'>, previousCode?: string): Promise<string> {
  await stepUpDialog(page).getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor();
  const code = await readStepUpCode(customer, previousCode);
  await typeStepUpCode(page, code);
  return code;
}

export async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

/** The first dashboard visit in a browser greets the customer; the journeys start after it. */
export async function signInPastWelcome(page: Page, customer: Pick<FundedCustomer, 'email' | 'password'>): Promise<void> {
  await signIn(page, customer);
  await page.getByRole('dialog').getByRole('button', { name: 'Get started' }).click();
  await heading(page, 'Your dashboard');
}

/** The unread count the header bell announces ("Notifications, 2 unread"). */
export async function unreadCount(page: Page): Promise<number> {
  const label =
    (await page
      .getByRole('banner')
      .getByRole('link', { name: /^Notifications, \d+ unread$/ })
      .getAttribute('aria-label')) ?? '';
  return Number(/(\d+) unread/.exec(label)?.[1]);
}

/** How long one look at a dashboard figure waits for it; a poll looks again after it. */
const dashboardLookMs = 10_000;

/**
 * `read` given one look's time. When the figure is not there (no such card, an error shown in its
 * place), the answer is what the page's main region says instead: a poll that never matches then
 * fails with what the customer saw, instead of each attempt waiting out a page action's limit
 * (expect.poll waits for an attempt however long it takes: two such attempts once used up a
 * journey's 240 s without a word).
 */
export async function lookOnDashboard(page: Page, read: (timeout: number) => Promise<string | null>): Promise<string | null> {
  try {
    return await read(dashboardLookMs);
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    const shown = await page
      .getByRole('main')
      .innerText({ timeout: dashboardLookMs })
      .catch(() => '(no main region)');
    return `not on the page, which shows: ${shown.replace(/\s+/g, ' ').slice(0, 500)}`;
  }
}

/** A figure ('Balance', 'Available balance') of an account's card on the dashboard. */
export async function figureOnDashboard(page: Page, accountName: string, figure: 'Balance' | 'Available balance'): Promise<string | null> {
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: accountName }) });
  return lookOnDashboard(page, (timeout) =>
    card
      .locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${figure}$`) }) })
      .locator('dd')
      .textContent({ timeout }),
  );
}

/**
 * The two micro-deposits the sandbox texted for a new link (docs/product.md section 6: the message's
 * only numbers after a "$0."), in cents.
 */
export const microDepositsPattern = /\$0\.(\d{1,2})\b[^$]*\$0\.(\d{1,2})\b/;

export async function readMicroDepositCents(customer: Pick<FundedCustomer, 'phone'>): Promise<[number, number]> {
  const [, first, second] = await readOutbox(customer.phone, microDepositsPattern);
  return [Number(first), Number(second)];
}

/** An account at another bank for a journey; its number must not end 0001 or 0002, which the simulator returns. */
export const otherBankAccount = { accountNumber: '4820000055', routeNumber: '011000015', accountType: 'checking' } as const;

/**
 * Links an account at another bank and verifies it through the API, as the customer's browser
 * would (CSRF token, Idempotency-Key, the step-up code and then the two amounts from the sandbox
 * outbox), for journeys that deposit but are not about linking. `page` is signed in: its context
 * holds the session cookie.
 */
export async function linkVerifiedFundingSource(page: Page, customer: FundedCustomer): Promise<FundingSource> {
  const cookies = await page.context().cookies();
  const csrfToken = cookies.find((cookie) => cookie.name === secureCsrfCookieName || cookie.name === csrfCookieName)?.value ?? '';
  const csrf = { [csrfHeaderName]: csrfToken };
  const body = { accountName: `${customer.firstName} ${customer.lastName}`, ...otherBankAccount };
  const linkHeaders = { ...csrf, [idempotencyKeyHeader]: randomUUID() };

  const asked = await page.request.post('/api/v1/funding-sources', { headers: linkHeaders, data: body });
  expect(asked.status(), await asked.text()).toBe(403);
  const { error } = (await asked.json()) as { error: { code: string; challengeId: string } };
  expect(error.code).toBe('step_up_required');
  const code = await readStepUpCode(customer);
  const stepUp = await page.request.post(`/api/v1/step-up/${error.challengeId}`, { headers: csrf, data: { code } });
  expect(stepUp.status(), await stepUp.text()).toBe(200);
  const linked = await page.request.post('/api/v1/funding-sources', { headers: { ...linkHeaders, [stepUpHeader]: error.challengeId }, data: body });
  expect(linked.status(), await linked.text()).toBe(201);
  const { fundingSource } = fundingSourceResponseSchema.parse(await linked.json());

  const amountsCents = await readMicroDepositCents(customer);
  const verified = await page.request.post(`/api/v1/funding-sources/${fundingSource.id}/verify`, { headers: csrf, data: { amountsCents } });
  expect(verified.status(), await verified.text()).toBe(200);
  return fundingSourceResponseSchema.parse(await verified.json()).fundingSource;
}
