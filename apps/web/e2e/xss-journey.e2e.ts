import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIResponse, Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { csrfCookieName, csrfHeaderName, secureCsrfCookieName } from '@strongroom/contracts/http.ts';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { viewports, useBrowser, waitForApp } from './support/browser.ts';
import { fixturesDirectory, phoneCodePattern, readOutbox, uniqueEmail, uniquePhoneNumber, verificationLinkPattern } from './support/identity.ts';
import {
  accountOf,
  createFundedCustomer,
  otherBankAccount,
  readMicroDepositCents,
  readStepUpCode,
  signIn,
  signInPastWelcome,
  type FundedCustomer,
} from './support/money.ts';
import { showMoreUntil } from './support/lists.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/**
 * Issue 17 item 6: cross-site scripting in Chromium. Every text a visitor or a customer can store
 * holds a payload; every screen that shows it is opened, the customer's and the back office's, and
 * on each one a trap must stay unsprung (`window.__xss` undefined), the page's CSP must report
 * nothing, no script error or console error may appear, and the payload must be on screen as
 * literal text (so the test proves the text was rendered, not left out).
 *
 * 109 s in a full run on a 2-core machine; a CI run there may take twice that (decision 083).
 */
const journeyTimeoutMs = 360_000;

/** One payload per context a renderer could get wrong: element, attribute, SVG, URL, template, <title>. */
const payloads = {
  script: '<script>window.__xss=1</script>',
  attribute: '"><img src=x onerror="window.__xss=1">',
  svg: '<svg onload=window.__xss=1>',
  url: 'javascript:window.__xss=1',
  template: "{{constructor.constructor('window.__xss=1')()}}",
  title: '</title><script>window.__xss=1</script>',
  /** The same attack in 20 characters, for the card's 26-character name. */
  shortSvg: '<svg onload=__xss=1>',
} as const;

/** Every text field a visitor or customer can store, and the screens of this journey that show it. */
const hostile = {
  // Sign-up (the real /signup screen): shown in the console's identity review and customers, and in the sandbox inbox.
  signupFirstName: `Ida ${payloads.template}`,
  signupLastName: `Ng ${payloads.title}`,
  // Identity step (POST /onboarding/identity, multipart): the console's identity review.
  identityState: `Ohio ${payloads.svg}`,
  identityAddress: `1 Elm St ${payloads.attribute}`,
  // A customer's own names (ops create-customer stores them as sign-up does): dashboard, profile, the
  // recipient's transaction details, the console's customers, customer page, messages, held transfers and loans.
  firstName: `Ann ${payloads.attribute}`,
  lastName: `Lee ${payloads.svg}`,
  // Beneficiary (POST /beneficiaries): payees list. Countries are names from the ISO 3166 list and
  // a name on card is capitals, spaces and hyphens (decision 060): no hostile text reaches them.
  beneficiaryBankName: `Bank ${payloads.script}`,
  beneficiaryAccountName: `Pat ${payloads.attribute}`,
  beneficiaryCountry: 'United Kingdom',
  // External transfer (POST /transfers kind external): history, transaction details (the country is shown by no screen).
  transferMessage: `Rent ${payloads.template}`,
  transferAccountName: `Pat ${payloads.svg}`,
  transferBankName: `Other ${payloads.title}`,
  transferCountry: 'United States',
  // Own transfer (to savings, which a card request needs $500 on): history.
  ownTransferMessage: `Save ${payloads.url} ${payloads.shortSvg}`,
  // Internal transfer held for review ($12,000): the console's held transfer, released there; sender's and recipient's history.
  heldMessage: `Deposit ${payloads.title}`,
  // Withdrawal (POST /withdrawals): history, transaction details (country, state and bank address are shown by no screen).
  withdrawalBankName: `Far ${payloads.script}`,
  withdrawalAccountName: `Kim ${payloads.attribute}`,
  withdrawalCountry: 'France',
  withdrawalState: `Var ${payloads.template}`,
  withdrawalBankAddress: `2 Quai ${payloads.url}`,
  // Funding source (POST /funding-sources) and deposit (POST /deposits): deposit sources, history.
  fundingAccountName: `Joe ${payloads.svg}`,
  depositReason: `Top up ${payloads.script}`,
  // Card request (POST /cards): the console's card requests, approved there; then the customer's card page.
  nameOnCard: 'ANN LEE-NG',
  // Loan application (POST /loans): the console's loan applications (the customer's loan page shows none of it).
  loanOccupation: `Chef ${payloads.attribute}`,
  loanAddress: `3 Rue ${payloads.svg}`,
  loanPurpose: `Van ${payloads.script} ${payloads.url}`,
  // Passkey name (the real Settings > Security screen, with Chromium's virtual authenticator): security settings.
  passkeyName: `Key ${payloads.attribute}`,
  // Secure message (the real /messages screen): thread (and the document title), console's messages, notifications.
  messageSubject: payloads.title,
  messageText: `Help ${payloads.script} ${payloads.attribute} ${payloads.template}`,
  messageReply: `Also ${payloads.svg} ${payloads.url}`,
  // Contact form (the real /contact screen, as a visitor): the console's messages (the email field takes only an address).
  contactName: `Vi ${payloads.attribute}`,
  contactPhone: `2025550100 ${payloads.shortSvg}`,
  contactSubject: `Hi ${payloads.title}`,
  contactMessage: `Call me ${payloads.script} ${payloads.template} ${payloads.url}`,
} as const;

/** The page's script errors, console errors and CSP reports, and the trap, in every page of a context. */
async function trappedContext(browser: Browser, baseURL = inject('baseUrl')): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ baseURL, viewport: viewports.desktop });
  await context.addInitScript(() => {
    const trapped = window as unknown as { __xss?: unknown; __cspViolations: string[] };
    trapped.__xss = undefined;
    trapped.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      trapped.__cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI}: ${event.sample}`);
    });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error on ${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // A step-up is asked for with a 403 from the API, which Chromium logs; a rendered payload would
    // instead load something that is not the API (`<img src=x>`), and that error counts.
    const stepUpAsked = /status of 403/.test(message.text()) && new URL(message.location().url, page.url()).pathname.startsWith('/api/v1/');
    if (!stepUpAsked) problems.push(`console error on ${page.url()}: ${message.text()} (${message.location().url})`);
  });
  return { context, page, problems };
}

/** Waits for the fonts and two animation frames: the page has reflowed after a change of size. */
function settleLayout(page: Page): Promise<void> {
  return page.evaluate(() =>
    document.fonts.ready.then(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))),
  );
}

/** After a screen has shown its texts: the trap is unsprung and the CSP reported nothing. */
async function expectNothingRan(page: Page): Promise<void> {
  // An <img onerror> fires once the image request has failed: wait until every image has settled
  // (loaded or broken), then let the tasks those queued run before reading the trap.
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  const state = await page.evaluate(() => {
    const trapped = window as unknown as { __xss?: unknown; __cspViolations: string[] };
    return { xss: trapped.__xss, violations: trapped.__cspViolations };
  });
  expect(state.xss, `a payload ran on ${page.url()}`).toBeUndefined();
  expect(state.violations, `CSP violations on ${page.url()}`).toEqual([]);
}

/**
 * Texts a screen should have shown and did not, with what it showed instead; the test fails on the
 * first payload that runs, and lists every missing text at its end, so one run names them all.
 */
const missing: string[] = [];

/** Each text is on screen, as text, somewhere visible. */
async function expectTexts(page: Page, texts: readonly string[]): Promise<void> {
  for (const text of texts) {
    try {
      await page.getByText(text).filter({ visible: true }).first().waitFor({ timeout: 8_000 });
    } catch {
      const dialog = page.getByRole('dialog').filter({ visible: true });
      const shown = await ((await dialog.count()) > 0 ? dialog.first() : page.locator('main')).innerText();
      missing.push(`${new URL(page.url()).pathname} does not show ${JSON.stringify(text)}; it shows: ${shown.replace(/\s+/g, ' ').slice(0, 600)}`);
    }
  }
}

const consoleNarrowest = { width: 768, height: 1024 };

/**
 * Long unbroken payloads must wrap, not push the page sideways: at desktop and at phone width, the
 * document is no wider than the window (the console's identity review, with a long name in its heading, once was 1,494 px at 1,280).
 */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  // The console is read at 768 px and wider; the customer's screens down to a phone's 390 px.
  const narrowest = new URL(page.url()).pathname.startsWith('/ops') ? consoleNarrowest : viewports.phone;
  for (const viewport of [narrowest, viewports.desktop]) {
    await page.setViewportSize(viewport);
    // Right after a resize, a page can be wider for a moment (fonts, balanced headings reflowing):
    // measure once the fonts are in and two frames have laid the page out at its new width.
    await settleLayout(page);
    const overflow = await measureOverflow(page);
    if (overflow) missing.push(`${new URL(page.url()).pathname} ${overflow}`);
    const brokenLabels = await page.evaluate(() =>
      [...document.querySelectorAll('button, a.button')]
        .filter((button) => {
          const label = button.textContent?.trim() ?? '';
          if (!label || /\s/.test(label) || button.getBoundingClientRect().width === 0) return false;
          // A one-word label on two lines was broken inside the word (its text only: an icon beside it sits higher).
          const tops = new Set<number>();
          const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const rect of range.getClientRects()) if (rect.width > 0) tops.add(Math.round(rect.top));
          }
          return tops.size > 1;
        })
        .map((button) => button.textContent?.trim()),
    );
    if (brokenLabels.length > 0) missing.push(`${new URL(page.url()).pathname} at ${viewport.width} px breaks the labels ${brokenLabels.join(', ')}`);
  }
}

/** After the next two frames: null when the page fits its window, else how wide it is and the innermost element past the edge. */
function measureOverflow(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const { scrollWidth } = document.documentElement;
            if (scrollWidth <= window.innerWidth) return resolve(null);
            const past = [...document.body.querySelectorAll('*')].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5);
            const culprit = past.find((element) => !past.some((other) => other !== element && element.contains(other)));
            // Text can overflow a box that itself fits: look for the text that reaches past the edge too.
            let overflowingText = '';
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node && !overflowingText; node = walker.nextNode()) {
              const range = document.createRange();
              range.selectNodeContents(node);
              if (range.getBoundingClientRect().right > window.innerWidth + 0.5) {
                overflowingText = `text "${(node.textContent ?? '').trim().slice(0, 60)}" in ${node.parentElement?.tagName.toLowerCase()}.${[...(node.parentElement?.classList ?? [])].join('.')}`;
              }
            }
            const name = culprit ? `${culprit.tagName.toLowerCase()}.${[...culprit.classList].join('.')}` : overflowingText || 'no element past the edge';
            resolve(`is ${scrollWidth} px wide in a ${window.innerWidth} px window (${name})`);
          }),
        ),
      ),
  );
}

/** Opens `url` with a full load, checks the answer's CSP, waits for the texts and checks the trap. */
async function visit(page: Page, url: string, texts: readonly string[]): Promise<void> {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp, `CSP of ${url}`).toContain("script-src 'self'");
  expect(csp).toContain("object-src 'none'");
  await expectTexts(page, texts);
  await expectNothingRan(page);
  // The sandbox inbox (a tester's page, polling every few seconds) is sometimes a few pixels wider
  // than a phone for a reason not found yet, with no element past the edge: its width is not checked.
  if (texts.length > 0 && !url.startsWith('/dev/mail')) await expectNoSidewaysScroll(page);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function csrfHeaders(cookies: { name: string; value: string }[], names: string[]): Record<string, string> {
  return { [csrfHeaderName]: cookies.find((cookie) => names.includes(cookie.name))?.value ?? '' };
}

/**
 * A customer's API call with the page's own cookies, as its screens make it: CSRF header, an
 * Idempotency-Key, and, when the server asks for one, the step-up code from the sandbox SMS.
 */
async function customerPost(page: Page, customer: FundedCustomer, url: string, data: unknown): Promise<APIResponse> {
  const headers = { ...csrfHeaders(await page.context().cookies(), [secureCsrfCookieName, csrfCookieName]), [idempotencyKeyHeader]: randomUUID() };
  const first = await page.request.post(url, { headers, data });
  if (first.status() !== 403) return first;
  const { error } = (await first.json()) as { error: { code: string; challengeId: string } };
  expect(error.code, `${url}: ${JSON.stringify(error)}`).toBe('step_up_required');
  const code = await readStepUpCode(customer);
  const stepUp = await page.request.post(`/api/v1/step-up/${error.challengeId}`, { headers, data: { code } });
  expect(stepUp.status(), await stepUp.text()).toBe(200);
  return page.request.post(url, { headers: { ...headers, [stepUpHeader]: error.challengeId }, data });
}

async function expectCreated(response: APIResponse): Promise<Record<string, unknown>> {
  expect([200, 201, 202], `${response.url()}: ${await response.text()}`).toContain(response.status());
  return (await response.json()) as Record<string, unknown>;
}

describe.skipIf(!inject('chromiumPath'))('cross-site scripting', () => {
  const browser = useBrowser();

  it(
    'stores payloads in every text a visitor or customer can type, and every screen shows them as text without running them',
    async () => {
      const started = Date.now();
      const [sender, recipient, admin] = await Promise.all([
        createFundedCustomer('xss-sender', 2_500_000, { firstName: hostile.firstName, lastName: hostile.lastName }),
        createFundedCustomer('xss-recipient', 10_000, { firstName: 'Rita', lastName: 'Payee' }),
        createStaff('xss-admin', 'admin'),
      ]);
      const senderName = `${hostile.firstName} ${hostile.lastName}`;

      // A visitor writes through the contact form.
      const visitor = await trappedContext(browser());
      await visit(visitor.page, '/contact', []);
      // The page is prerendered: what is typed before React hydrates it is not in the form's state (a
      // busy machine showed it, the form then sent nothing and the test waited for a dialog in vain).
      await waitForApp(visitor.page);
      const form = visitor.page.getByRole('form', { name: 'Send us a message' });
      await form.getByRole('textbox', { name: 'Name' }).fill(hostile.contactName);
      await form.getByRole('textbox', { name: 'Email' }).fill(uniqueEmail('xss-visitor'));
      await form.getByRole('textbox', { name: 'Phone' }).fill(hostile.contactPhone);
      await form.getByRole('textbox', { name: 'Subject' }).fill(hostile.contactSubject);
      await form.getByRole('textbox', { name: 'Message' }).fill(hostile.contactMessage);
      await form.getByRole('button', { name: 'Send Message' }).click();
      await visitor.page.getByRole('dialog', { name: 'Message sent' }).waitFor();
      await expectNothingRan(visitor.page);

      // A new customer signs up through the real screen and sends their identity.
      const applicant = await trappedContext(browser());
      const applicantEmail = uniqueEmail('xss-applicant');
      const password = 'tangerine lighthouse drift';
      await visit(applicant.page, '/signup', []);
      await applicant.page.getByRole('textbox', { name: 'First name' }).fill(hostile.signupFirstName);
      await applicant.page.getByRole('textbox', { name: 'Last name' }).fill(hostile.signupLastName);
      await applicant.page.getByRole('textbox', { name: 'Email' }).fill(applicantEmail);
      await applicant.page.getByLabel('Password', { exact: true }).fill(password);
      await applicant.page.getByLabel('Confirm password').fill(password);
      await applicant.page.getByRole('checkbox', { name: /terms and conditions/ }).check();
      await applicant.page.getByRole('button', { name: 'Create account' }).click();
      await applicant.page.getByRole('heading', { level: 1, name: 'Check your email' }).waitFor();
      await expectNothingRan(applicant.page);
      const [, token] = await readOutbox(applicantEmail, verificationLinkPattern);
      const api = applicant.context.request;
      expect((await api.post('/api/v1/auth/verify-email', { data: { token } })).status()).toBe(200);
      expect(await (await api.post('/api/v1/auth/signup/status')).json()).toMatchObject({ verified: true });
      const applicantCsrf = csrfHeaders(await applicant.context.cookies(), [secureCsrfCookieName, csrfCookieName]);
      const phone = uniquePhoneNumber();
      expect((await api.post('/api/v1/onboarding/phone', { data: { countryCode: 'US', phoneNumber: phone.national }, headers: applicantCsrf })).status()).toBe(
        200,
      );
      const [, phoneCode] = await readOutbox(phone.e164, phoneCodePattern);
      expect((await api.post('/api/v1/onboarding/phone/verify', { data: { code: phoneCode }, headers: applicantCsrf })).status()).toBe(200);
      const identity = await api.post('/api/v1/onboarding/identity', {
        headers: csrfHeaders(await applicant.context.cookies(), [secureCsrfCookieName, csrfCookieName]),
        multipart: {
          document: { name: 'id.png', mimeType: 'image/png', buffer: await readFile(path.join(fixturesDirectory, 'identity-document.png')) },
          idType: 'passport',
          idNumber: 'XS1234567',
          dateOfBirth: '1990-01-31',
          country: 'US',
          // The state comes from a list since decision 055: the hostile text goes in the city instead.
          address: hostile.identityAddress,
          city: hostile.identityState,
          state: 'OH',
          zipCode: '43215',
        },
      });
      expect(identity.status(), await identity.text()).toBe(201);
      // The sandbox inbox shows the verification email, addressed by the hostile name.
      await visit(applicant.page, `/dev/mail?to=${encodeURIComponent(applicantEmail)}`, [hostile.signupFirstName]);

      // The sender stores the rest through the API with its own cookies, and a secure message through the screen.
      const customer = await trappedContext(browser());
      const { page } = customer;
      await signInPastWelcome(page, sender);
      const checking = accountOf(sender, 'checking');
      await expectCreated(
        await customerPost(page, sender, '/api/v1/beneficiaries', {
          bankName: hostile.beneficiaryBankName,
          accountName: hostile.beneficiaryAccountName,
          accountNumber: '4820000077',
          nameOfCountry: hostile.beneficiaryCountry,
          routeNumber: otherBankAccount.routeNumber,
          bankType: 'otherbank',
        }),
      );
      await expectCreated(
        await customerPost(page, sender, '/api/v1/transfers', {
          kind: 'external',
          fromAccountId: checking.id,
          amountCents: 2_500,
          message: hostile.transferMessage,
          toAccountNumber: '4820000088',
          accountName: hostile.transferAccountName,
          routeNumber: otherBankAccount.routeNumber,
          nameOfBank: hostile.transferBankName,
          nameOfCountry: hostile.transferCountry,
        }),
      );
      await expectCreated(
        await customerPost(page, sender, '/api/v1/transfers', {
          kind: 'internal',
          fromAccountId: checking.id,
          amountCents: 1_200_000,
          message: hostile.heldMessage,
          toAccountNumber: accountOf(recipient, 'checking').number,
          accountName: 'Rita Payee',
        }),
      );
      await expectCreated(
        await customerPost(page, sender, '/api/v1/withdrawals', {
          fromAccountId: checking.id,
          amountCents: 1_500,
          country: hostile.withdrawalCountry,
          nameOfBank: hostile.withdrawalBankName,
          accountName: hostile.withdrawalAccountName,
          accountNumber: '4820000099',
          stateName: hostile.withdrawalState,
          bankAddress: hostile.withdrawalBankAddress,
          routeNumber: otherBankAccount.routeNumber,
        }),
      );
      const linked = await expectCreated(
        await customerPost(page, sender, '/api/v1/funding-sources', { accountName: hostile.fundingAccountName, ...otherBankAccount }),
      );
      const fundingSourceId = (linked.fundingSource as { id: string }).id;
      const amountsCents = await readMicroDepositCents(sender);
      await expectCreated(await customerPost(page, sender, `/api/v1/funding-sources/${fundingSourceId}/verify`, { amountsCents }));
      await expectCreated(
        await customerPost(page, sender, '/api/v1/deposits', { accountId: checking.id, fundingSourceId, amountCents: 3_000, reason: hostile.depositReason }),
      );
      await expectCreated(
        await customerPost(page, sender, '/api/v1/transfers', {
          kind: 'own',
          fromAccountId: checking.id,
          toAccountId: accountOf(sender, 'savings').id,
          amountCents: 60_000,
          message: hostile.ownTransferMessage,
        }),
      );
      await expectCreated(await customerPost(page, sender, '/api/v1/cards', { cardType: 'debit', cardNetwork: 'visa', nameOnCard: hostile.nameOnCard }));
      await expectCreated(
        await customerPost(page, sender, '/api/v1/loans', {
          maritalStatus: 'single',
          occupation: hostile.loanOccupation,
          address: hostile.loanAddress,
          amountCents: 500_000,
          annualIncomeCents: 6_000_000,
          purpose: hostile.loanPurpose,
          durationMonths: 12,
        }),
      );

      await visit(page, '/messages?new=1', []);
      const newMessage = page.getByRole('form', { name: 'New message' });
      await newMessage.getByRole('textbox', { name: 'Subject' }).fill(hostile.messageSubject);
      await newMessage.getByRole('textbox', { name: 'Message' }).fill(hostile.messageText);
      await newMessage.getByRole('button', { name: 'Send message' }).click();
      await page.getByRole('heading', { level: 1, name: hostile.messageSubject }).waitFor();
      await page.getByRole('textbox', { name: 'Add to your message' }).fill(hostile.messageReply);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expectTexts(page, [hostile.messageSubject, hostile.messageText, hostile.messageReply]);
      expect(await page.title()).toContain(hostile.messageSubject);
      await expectNothingRan(page);
      await expectNoSidewaysScroll(page);
      const threadUrl = new URL(page.url()).pathname;
      await screenshotBothWidths(page, 'xss-01-thread');

      // The back office: every queue and page that shows a visitor's or a customer's text.
      const office = await trappedContext(browser());
      const ops = office.page;
      await staffSignIn(ops, admin);
      const applicantName = `${hostile.signupFirstName} ${hostile.signupLastName}`;
      await visit(ops, '/ops/identity', []);
      await showMoreUntil(ops, ops.getByRole('link', { name: applicantName }));
      await ops.getByRole('link', { name: applicantName }).first().click();
      await expectTexts(ops, [hostile.signupFirstName, hostile.signupLastName, hostile.identityState, hostile.identityAddress]);
      await expectNothingRan(ops);
      await expectNoSidewaysScroll(ops);
      await screenshotBothWidths(ops, 'xss-04-ops-identity-review');

      await visit(ops, `/ops/customers?q=${encodeURIComponent(sender.email)}`, [senderName]);
      await ops.getByRole('link', { name: senderName }).first().click();
      await expectTexts(ops, [hostile.firstName, hostile.lastName]);
      await expectNothingRan(ops);
      await expectNoSidewaysScroll(ops);

      await visit(ops, '/ops/held-transfers', []);
      const review = ops.getByRole('button', { name: 'Review $12,000.00 to Rita Payee', exact: true });
      await showMoreUntil(ops, review);
      await review.first().click();
      await expectTexts(ops, [hostile.heldMessage, senderName]);
      await expectNothingRan(ops);
      await expectNoSidewaysScroll(ops);
      await ops.getByRole('button', { name: 'Release', exact: true }).click();
      const release = ops.getByRole('dialog', { name: 'Release $12,000.00 to Rita Payee?' });
      await release.getByRole('textbox', { name: 'Reason' }).fill('Source of funds seen');
      await release.getByRole('button', { name: 'Release' }).click();
      await ops.getByText('The transfer was released.').waitFor();

      await visit(ops, '/ops/messages', []);
      for (const [from, subject, texts] of [
        [hostile.contactName, hostile.contactSubject, [hostile.contactName, hostile.contactSubject, hostile.contactMessage, hostile.contactPhone]],
        [senderName, hostile.messageSubject, [hostile.messageSubject, hostile.messageText, hostile.messageReply]],
      ] as const) {
        const open = ops.getByRole('button', { name: `Open the message from ${from}: ${subject}`, exact: true });
        await showMoreUntil(ops, open);
        await open.click();
        await expectTexts(ops, texts);
        await expectNothingRan(ops);
        await expectNoSidewaysScroll(ops);
      }
      await screenshotBothWidths(ops, 'xss-05-ops-message');
      // Support answers the secure message, so the customer has a notification about the thread.
      await ops.getByRole('textbox', { name: /^Reply/ }).fill('We will call you back today.');
      await ops.getByRole('button', { name: 'Send reply' }).click();
      await ops.getByRole('dialog', { name: 'Send this reply?' }).getByRole('button', { name: 'Send' }).click();
      await ops.getByText(/was sent\./).waitFor();

      await visit(ops, '/ops/loans', []);
      const loan = ops.getByRole('button', { name: `Review ${senderName}'s application for $5,000.00`, exact: true });
      await showMoreUntil(ops, loan);
      await loan.click();
      await expectTexts(ops, [hostile.loanOccupation, hostile.loanAddress, hostile.loanPurpose]);
      await expectNothingRan(ops);
      await expectNoSidewaysScroll(ops);
      await ops.keyboard.press('Escape');

      await visit(ops, '/ops/cards', []);
      const approve = ops.getByRole('button', { name: new RegExp(`^Approve .* for ${escapeRegExp(senderName)}$`) });
      await showMoreUntil(ops, approve);
      await expectTexts(ops, [`Name on card: ${hostile.nameOnCard}`]);
      await expectNothingRan(ops);
      await expectNoSidewaysScroll(ops);
      await approve.click();
      const approval = ops.getByRole('dialog', { name: /^Approve a / });
      await approval.getByRole('textbox', { name: 'Reason' }).fill('Identity and balance checked');
      await approval.getByRole('button', { name: 'Approve card' }).click();
      await approval.getByText('The card was approved; the customer is told and can use it now.').waitFor();
      await approval.getByRole('button', { name: 'Done' }).click();

      await visit(ops, '/ops/audit', []);

      // Every customer screen that shows those texts.
      await visit(page, '/dashboard', [hostile.firstName]);
      await visit(page, '/profile', [hostile.firstName, hostile.lastName]);
      await visit(page, '/settings', []);
      await visit(page, '/beneficiaries?tab=otherbank', [hostile.beneficiaryAccountName, hostile.beneficiaryBankName]);
      await visit(page, '/transaction-history', [
        hostile.transferMessage,
        hostile.heldMessage,
        hostile.depositReason,
        hostile.ownTransferMessage,
        hostile.withdrawalBankName,
      ]);
      await screenshotBothWidths(page, 'xss-02-history');
      for (const [description, texts] of [
        [hostile.transferMessage, [hostile.transferAccountName, hostile.transferBankName]],
        [hostile.withdrawalBankName, [hostile.withdrawalAccountName]],
      ] as const) {
        await page.getByRole('button', { name: description }).first().click();
        const details = page.getByRole('dialog');
        await details.waitFor();
        await expectTexts(page, texts);
        await expectNothingRan(page);
        await expectNoSidewaysScroll(page);
        if (description === hostile.transferMessage) await screenshotBothWidths(page, 'xss-03-transaction-details');
        await page.keyboard.press('Escape');
        await details.waitFor({ state: 'hidden' });
      }
      await visit(page, '/deposit/sources', [hostile.fundingAccountName]);
      await visit(page, '/card', [hostile.nameOnCard]);
      await visit(page, '/loan', []);
      // Support's answer is a notification that quotes the subject.
      await visit(page, '/notifications', [hostile.messageSubject]);
      await visit(page, threadUrl, [hostile.messageSubject, hostile.messageText, hostile.messageReply]);

      // A passkey named with a payload. Browsers refuse an IP address as a WebAuthn relying party, so
      // this part opens the bank at localhost (docs/decisions/030), with a virtual authenticator.
      const keyOrigin = new URL(inject('baseUrl'));
      keyOrigin.hostname = 'localhost';
      const keyed = await trappedContext(browser(), keyOrigin.origin);
      const cdp = await keyed.context.newCDPSession(keyed.page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      await signIn(keyed.page, sender);
      await visit(keyed.page, '/settings/security', []);
      await keyed.page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Add a passkey' }).click();
      const addPasskey = keyed.page.getByRole('dialog', { name: 'Add a passkey' });
      await addPasskey.getByRole('textbox', { name: 'Passkey name' }).fill(hostile.passkeyName);
      const previousCode = await readStepUpCode(sender);
      await addPasskey.getByRole('button', { name: 'Continue' }).click();
      const stepUpCode = await readStepUpCode(sender, previousCode);
      await keyed.page
        .getByRole('dialog', { name: /^Confirm it.s you$/ })
        .getByRole('textbox', { name: 'Digit 1 of 6' })
        .click();
      await keyed.page.keyboard.type(stepUpCode);
      await keyed.page.getByText(`Passkey “${hostile.passkeyName}” was added`).waitFor();
      await expectNothingRan(keyed.page);
      await visit(keyed.page, '/settings/security', [hostile.passkeyName]);
      await visit(keyed.page, '/settings/activity', []);

      // The recipient of the released transfer sees the sender's name and message.
      const receiver = await trappedContext(browser());
      await signInPastWelcome(receiver.page, recipient);
      await visit(receiver.page, '/transaction-history', [hostile.heldMessage]);
      await receiver.page.getByRole('button', { name: hostile.heldMessage }).first().click();
      await expectTexts(receiver.page, [senderName]);
      await expectNothingRan(receiver.page);
      await expectNoSidewaysScroll(receiver.page);
      await visit(receiver.page, '/notifications', []);

      expect(missing).toEqual([]);
      const problems = [...visitor.problems, ...applicant.problems, ...customer.problems, ...office.problems, ...receiver.problems, ...keyed.problems];
      expect(problems).toEqual([]);
      for (const opened of [visitor, applicant, customer, office, receiver, keyed]) await opened.context.close();
      process.stdout.write(`xss journey: ${Date.now() - started} ms\n`);
    },
    journeyTimeoutMs,
  );
});
