import { request, type Locator, type Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { csrfCookieName, csrfHeaderName, secureCsrfCookieName, secureStaffCsrfCookieName, staffCsrfCookieName } from '@strongroom/contracts/http.ts';
import { loanResponseSchema } from '@strongroom/contracts/loans.ts';
import { idempotencyKeyHeader } from '@strongroom/contracts/payments.ts';
import { baseUrl, openPage, viewports, useBrowser } from './support/browser.ts';
import { createFundedCustomer, heading, signInPastWelcome, unreadCount, type FundedCustomer } from './support/money.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { saveScreenshot, screenshotWidths } from './support/screenshots.ts';

/** Issue 20, item 9: what a customer and a member of staff see on a 390 px phone. */
const journeyTimeoutMs = 180_000;
const phoneWidth = viewports.phone.width;

/** Full-page pictures at the phone's and the desktop's widths, for a person to look at. */
function screenshots(page: Page, name: string): Promise<void> {
  return screenshotWidths(page, 'small-screens', name, { endWidth: viewports.phone.width });
}

/** How wide the page is: wider than the screen means the person scrolls sideways to read it. */
function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

/** Whether the element's whole box is on screen sideways (from 0 to the phone's width). */
async function withinPhoneWidth(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('the element is not drawn');
  return box.x >= 0 && box.x + box.width <= phoneWidth;
}

/** The signed-in customer's own request, as the app sends it: the CSRF token of the session, and an Idempotency-Key. */
async function applyForLoan(page: Page): Promise<string> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === csrfCookieName || cookie.name === secureCsrfCookieName);
  const response = await page.request.post('/api/v1/loans', {
    data: {
      maritalStatus: 'single',
      occupation: 'Courier',
      address: '3 Elm Row, Springfield',
      amountCents: 500_000,
      annualIncomeCents: 6_000_000,
      purpose: 'A cargo bike',
      durationMonths: 12,
    },
    headers: { [csrfHeaderName]: csrf?.value ?? '', [idempotencyKeyHeader]: crypto.randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(201);
  return loanResponseSchema.parse(await response.json()).loan.id;
}

/** The customer accepts the offer (an approval is an offer, decision 058), as the loan page's Accept sends it: the loan is paid out. */
async function acceptLoanOffer(page: Page, loanId: string): Promise<void> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === csrfCookieName || cookie.name === secureCsrfCookieName);
  const response = await page.request.post(`/api/v1/loans/${loanId}/accept`, {
    headers: { [csrfHeaderName]: csrf?.value ?? '', [idempotencyKeyHeader]: crypto.randomUUID() },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** A member of operations approves the application, as the console's Approve button sends it. */
async function approveLoan(page: Page, loanId: string): Promise<void> {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === staffCsrfCookieName || cookie.name === secureStaffCsrfCookieName);
  const response = await page.request.post(`/api/v1/staff/loans/${loanId}/decision`, {
    data: { decision: 'approve', reason: 'Steady income for two years', amountCents: 500_000, aprBps: 950, termMonths: 12 },
    headers: { [csrfHeaderName]: csrf?.value ?? '' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Signs the customer in from `times` browsers they never used: each sign-in leaves an unread "New sign-in" notification. */
async function signInFromNewBrowsers(customer: FundedCustomer, times: number): Promise<void> {
  for (let index = 0; index < times; index += 1) {
    const browserWithoutCookies = await request.newContext({ baseURL: baseUrl() });
    const response = await browserWithoutCookies.post('/api/v1/auth/login', { data: { email: customer.email, password: customer.password } });
    expect(response.status(), await response.text()).toBe(200);
    await browserWithoutCookies.dispose();
  }
}

describe.skipIf(!inject('chromiumPath'))('the bank on a phone (390 px)', () => {
  const browser = useBrowser();

  it(
    'shows the dashboard’s recent amounts without sideways scrolling, and a two-digit count beside the bell, not on it',
    async () => {
      const customer = await createFundedCustomer('small-dashboard', 125_000);
      const { context, page, problems } = await openPage(browser(), { viewport: viewports.phone });
      await signInPastWelcome(page, customer);
      await signInFromNewBrowsers(customer, 11);
      await page.reload();
      await heading(page, 'Your dashboard');
      await expect.poll(() => unreadCount(page)).toBeGreaterThanOrEqual(10);

      const bell = page.getByRole('banner').getByRole('link', { name: /^Notifications, \d+ unread$/ });
      const bellIcon = await bell.locator('svg').boundingBox();
      const badge = await bell.locator('.notification-bell__badge').boundingBox();
      if (!bellIcon || !badge) throw new Error('the bell and its count should both be drawn');
      const overlapsSideways = badge.x < bellIcon.x + bellIcon.width && bellIcon.x < badge.x + badge.width;
      const overlapsUpDown = badge.y < bellIcon.y + bellIcon.height && bellIcon.y < badge.y + badge.height;
      expect(overlapsSideways && overlapsUpDown, `the count ${JSON.stringify(badge)} covers the bell ${JSON.stringify(bellIcon)}`).toBe(false);
      expect(await withinPhoneWidth(bell)).toBe(true);

      const recent = page.getByRole('list', { name: 'Latest transactions, newest first' });
      const amount = recent.getByText('$1,250.00');
      await amount.waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(phoneWidth);
      expect(await withinPhoneWidth(amount)).toBe(true);

      await screenshots(page, 'dashboard');
      await saveScreenshot(page.getByRole('banner'), 'small-screens', 'header-with-count-390');
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'shows each payment of a loan’s schedule, its interest, balance and status, without sideways scrolling',
    async () => {
      const borrower = await createFundedCustomer('small-loan', 100_000);
      const customer = await openPage(browser(), { viewport: viewports.phone });
      await signInPastWelcome(customer.page, borrower);
      const loanId = await applyForLoan(customer.page);
      const officer = await createStaff('small-loan-officer', 'operations');
      const staff = await openPage(browser());
      await staffSignIn(staff.page, officer);
      await approveLoan(staff.page, loanId);
      await acceptLoanOffer(customer.page, loanId);

      await customer.page.goto(`/loan/${loanId}`);
      await heading(customer.page, 'Loan of $5,000.00');
      const schedule = customer.page.getByRole('list', { name: 'Payment schedule' });
      const payments = schedule.getByRole('listitem');
      expect(await payments.count()).toBe(12);
      const first = payments.first();
      for (const figure of ['Payment', 'Interest', 'Balance after']) {
        const value = first.locator('dt', { hasText: figure }).locator('xpath=following-sibling::dd[1]');
        expect(await value.textContent(), figure).toMatch(/^\$[\d,]+\.\d{2}$/);
        expect(await withinPhoneWidth(value), figure).toBe(true);
      }
      expect(await withinPhoneWidth(first.getByText('Due', { exact: true }))).toBe(true);
      expect(await pageWidth(customer.page)).toBeLessThanOrEqual(phoneWidth);

      await screenshots(customer.page, 'loan-schedule');
      expect(customer.problems).toEqual([]);
      expect(staff.problems).toEqual([]);
      for (const opened of [customer, staff]) await opened.context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'fits the back office into the phone’s width',
    async () => {
      const member = await createStaff('small-console-with-a-rather-long-address', 'admin');
      const { context, page, problems } = await openPage(browser(), { viewport: viewports.phone });
      await staffSignIn(page, member);
      expect(await pageWidth(page)).toBeLessThanOrEqual(phoneWidth);
      await screenshots(page, 'back-office');
      await page
        .getByRole('navigation', { name: 'Back office' })
        .getByRole('link', { name: /^Customers/ })
        .click();
      await heading(page, 'Customers');
      expect(await pageWidth(page)).toBeLessThanOrEqual(phoneWidth);
      await screenshots(page, 'back-office-customers');
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it('draws no focus ring on the page heading the app moves focus to, and keeps the ring on controls reached with Tab', async () => {
    const { context, page, problems } = await openPage(browser(), { viewport: viewports.phone });
    await page.goto('/login');
    const title = page.getByRole('heading', { level: 1 });
    await expect.poll(() => title.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await title.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('none');

    // A keyboard user goes on to sign-up: the focus the app then moves to its heading is shown as a
    // keyboard's focus is, unless the heading says otherwise.
    await page.keyboard.press('Tab');
    await page.getByRole('link', { name: 'Create an account' }).focus();
    await page.keyboard.press('Enter');
    const signupTitle = page.getByRole('heading', { level: 1 });
    await expect.poll(() => signupTitle.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await signupTitle.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('none');
    await screenshots(page, 'focused-heading');

    await page.keyboard.press('Tab');
    const focusedOutline = await page.evaluate(() => (document.activeElement ? getComputedStyle(document.activeElement).outlineStyle : ''));
    const focusedShadow = await page.evaluate(() => (document.activeElement ? getComputedStyle(document.activeElement).boxShadow : ''));
    expect(focusedOutline !== 'none' || focusedShadow !== 'none', 'the control reached with Tab shows its focus').toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
