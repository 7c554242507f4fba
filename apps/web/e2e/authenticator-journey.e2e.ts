import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl, expectNoAxeViolations, openPage, viewports, useBrowser } from './support/browser.ts';
import { createFundedCustomer, type FundedCustomer, heading, readStepUpCode, stepUpDialog, typeStepUpCode } from './support/money.ts';
import { totpNow } from './support/staff.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** Signing in twice, an enrolment, a payment, a session ended and a password changed. */
const journeyTimeoutMs = 180_000;
const iphoneSafari = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function typeCode(page: Page, scope: ReturnType<Page['getByRole']>, code: string): Promise<void> {
  await scope.getByRole('textbox', { name: 'Digit 1 of 6' }).click();
  await page.keyboard.type(code);
}

/** How many messages (mail and SMS) the sandbox sent to `to`. */
async function outboxCount(to: string): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as { items: unknown[] }).items.length;
}

/** Through the login page; 'Sign in' exactly, beside 'Sign in with a passkey'. */
async function signIn(page: Page, customer: Pick<FundedCustomer, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/dashboard');
}

async function signInPastWelcome(page: Page, customer: Pick<FundedCustomer, 'email' | 'password'>): Promise<void> {
  await signIn(page, customer);
  await page.getByRole('dialog').getByRole('button', { name: 'Get started' }).click();
  await heading(page, 'Your dashboard');
}

async function openSecurity(page: Page): Promise<void> {
  await page.goto('/settings/security');
  await heading(page, 'Security');
}

describe.skipIf(!inject('chromiumPath'))('authenticator app, sessions and password', () => {
  const browser = useBrowser();

  it(
    'enrols an authenticator app and pays an external transfer with its code; ends a second browser’s session; changes the password',
    async () => {
      const customer: FundedCustomer = await createFundedCustomer('authenticator', 200_000);
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      // A second browser(), on a phone, signed in at the same time.
      const phoneContext = await browser().newContext({ baseURL: baseUrl(), viewport: viewports.phone, userAgent: iphoneSafari });
      const phone = await phoneContext.newPage();
      await signIn(phone, customer);

      // Enrol: a step-up answered with a factor the customer already has (the code texted to the phone), however recent the
      // sign-in; then the QR code and the key, and a code from the app.
      await openSecurity(page);
      await page.getByRole('heading', { level: 2, name: 'Where you’re signed in' }).waitFor();
      await page.getByText('Safari on iPhone').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'security-01-page');
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      await stepUpDialog(page)
        .getByText(/code we sent to/)
        .waitFor();
      await typeStepUpCode(page, await readStepUpCode(customer));
      await page.getByRole('img', { name: /QR code/ }).waitFor();
      expect(await stepUpDialog(page).count()).toBe(0);
      const secret = ((await page.getByLabel('Setup key').textContent()) ?? '').replace(/\s/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'security-02-enrol');
      const enrolledAtMs = Date.now();
      await typeCode(page, page.getByRole('group', { name: '6-digit code from the app' }), totpNow(secret, enrolledAtMs));
      const codes = page.getByRole('list', { name: 'Recovery codes' });
      await codes.waitFor();
      expect(await codes.getByRole('listitem').count()).toBe(10);
      await screenshotBothWidths(page, 'security-03-recovery-codes');
      await page.getByRole('checkbox', { name: 'I saved my recovery codes' }).check();
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByText(/10 of 10 recovery codes left/).waitFor();

      // Pay another bank: the dialog asks for the app's code first and no text is sent.
      const messagesBefore = await outboxCount(customer.phone);
      await page.goto('/transfer');
      await heading(page, 'Transfer');
      await page.getByRole('link', { name: /Transfer to other bank/ }).click();
      await heading(page, 'Transfer to other bank');
      await page.getByRole('textbox', { name: 'Account number' }).fill('123456789');
      await page.getByRole('textbox', { name: 'Holder name' }).fill('Frank Faraway');
      await page.getByRole('textbox', { name: 'Bank name' }).fill('First Federal');
      await page.getByRole('combobox', { name: 'Country name' }).selectOption('United States');
      await page.getByRole('textbox', { name: 'Routing number' }).fill('011000015');
      await page.getByRole('textbox', { name: 'Amount' }).fill('40');
      await page.getByRole('textbox', { name: 'Message' }).fill('Paid with the app');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('dialog', { name: 'Confirm the transfer' }).getByRole('button', { name: 'Confirm' }).click();
      const dialog = stepUpDialog(page);
      await dialog.getByRole('group', { name: '6-digit code from your authenticator app' }).waitFor();
      await dialog.getByRole('button', { name: 'Send me a text instead' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'security-04-step-up-app');
      // The enrolment spent this 30-second step's code: the app's next one answers (one step ahead is allowed).
      await typeStepUpCode(page, totpNow(secret, enrolledAtMs + 30_000));
      await page.getByRole('dialog', { name: /^(Your payment of \$40\.00 is on its way|\$40\.00 transferred successfully$)/ }).waitFor();
      expect(await outboxCount(customer.phone)).toBe(messagesBefore);
      await page.getByRole('button', { name: 'Done' }).click();

      // End the phone's session from the list: the phone is signed out.
      await openSecurity(page);
      await page.getByRole('button', { name: 'End the session on Safari on iPhone' }).click();
      await page.getByRole('dialog', { name: 'End this session?' }).getByRole('button', { name: 'End session' }).click();
      await page.getByText('Safari on iPhone is signed out').waitFor();
      await page.getByText('You are signed in on this device only.').waitFor();
      // The route guard shows the sign-in form in place of the dashboard.
      await phone.goto('/dashboard');
      await phone.getByRole('heading', { level: 1, name: 'Sign in to online banking' }).waitFor();
      await phoneContext.close();

      // Change the password, choosing a text message instead of the app.
      await page.getByLabel('Current password').fill(customer.password);
      await page.getByLabel(/^New password/).fill('a brand new harbour phrase');
      await page.getByLabel('Confirm new password').fill('a brand new harbour phrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await stepUpDialog(page).getByRole('button', { name: 'Send me a text instead' }).click();
      await stepUpDialog(page)
        .getByText(/We sent a code to/)
        .waitFor();
      await typeStepUpCode(page, await readStepUpCode(customer));
      await page.getByText(/Your password is changed/).waitFor();
      await screenshotBothWidths(page, 'security-05-after-password');

      // The new password signs in; the old one does not.
      const { context: later, page: again } = await openPage(browser());
      await signIn(again, { email: customer.email, password: 'a brand new harbour phrase' });
      await later.close();
      const old = await fetch(`${baseUrl()}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: customer.email, password: customer.password }),
      });
      expect(old.status).toBe(401);
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );
});
