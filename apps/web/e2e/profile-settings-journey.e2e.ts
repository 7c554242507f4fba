import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl, expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import { fixturesDirectory, phoneCodePattern, readOutbox, uniqueEmail, uniquePhoneNumber, verificationLinkPattern } from './support/identity.ts';
import { createFundedCustomer, heading, signIn, signInPastWelcome } from './support/money.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** Two customers, a member of staff and the ledger: sign-up to a paid bonus. */
const journeyTimeoutMs = 240_000;
/** The referrer's open Invite page hears of the bonus live, or on its next refetch. */
const bonusArrivesTimeoutMs = 60_000;

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

async function csrfHeaders(context: BrowserContext): Promise<Record<string, string>> {
  const csrf = (await context.cookies()).find((cookie) => cookie.name === 'csrf')?.value ?? '';
  return { 'x-csrf-token': csrf };
}

/**
 * The friend's sign-up was sent from the page; the rest of their onboarding (email, phone, identity
 * document) goes through the API in the same browser context, as the identity journey's helper does.
 */
async function friendSendsIdentity(context: BrowserContext, email: string): Promise<void> {
  const api = context.request;
  const [, token] = await readOutbox(email, verificationLinkPattern);
  expect((await api.post('/api/v1/auth/verify-email', { data: { token } })).status()).toBe(200);
  expect(await (await api.post('/api/v1/auth/signup/status')).json()).toMatchObject({ verified: true, next: 'phone' });
  const number = uniquePhoneNumber();
  const phone = await api.post('/api/v1/onboarding/phone', { data: { countryCode: 'US', phoneNumber: number.national }, headers: await csrfHeaders(context) });
  expect(phone.status(), await phone.text()).toBe(200);
  const [, code] = await readOutbox(number.e164, phoneCodePattern);
  const verified = await api.post('/api/v1/onboarding/phone/verify', { data: { code }, headers: await csrfHeaders(context) });
  expect(await verified.json()).toMatchObject({ next: 'identity' });
  const identity = await api.post('/api/v1/onboarding/identity', {
    headers: await csrfHeaders(context),
    multipart: {
      document: { name: 'identity-document.png', mimeType: 'image/png', buffer: await readFile(path.join(fixturesDirectory, 'identity-document.png')) },
      // A number of the friend's own, a driver's license of no state's form: a friend who shares an
      // ID number with another customer, as the identity journey's would be, has their bonus held
      // (decision 051), and social security numbers that are never issued (9xx) are refused (decision 055).
      idType: 'drivers_license',
      idNumber: `TEST-${number.e164.slice(2)}`,
      dateOfBirth: '1988-04-02',
      country: 'US',
      address: '1 Larimer Square',
      city: 'Denver',
      state: 'CO',
      zipCode: '80202',
    },
  });
  expect(identity.status(), await identity.text()).toBe(201);
}

describe.skipIf(!inject('chromiumPath'))('profile, settings, privacy and invite', () => {
  const browser = useBrowser();

  it(
    'keeps a switch across sign-ins, changes the photo, copies the referral link, and pays $10.00 when staff approve the referred friend',
    async () => {
      const referrer = await createFundedCustomer('profile-referrer', 5_000, { firstName: 'Rhea', lastName: 'Referrer' });
      const { context, page, problems } = await openPage(browser());
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
      await signInPastWelcome(page, referrer);

      // Settings: the More Options switches are saved on the server.
      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Settings' }).click();
      await heading(page, 'Settings');
      const newsletter = page.getByRole('switch', { name: 'Newsletter' });
      expect(await newsletter.getAttribute('aria-checked')).toBe('false');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, '60-settings');
      const saved = page.waitForResponse((response) => response.url().endsWith('/api/v1/me/preferences') && response.request().method() === 'PUT');
      await newsletter.click();
      expect((await saved).status()).toBe(200);
      expect(await newsletter.getAttribute('aria-checked')).toBe('true');

      // Signed out from Settings and in again, the switch is as it was left.
      await page.getByRole('button', { name: /Sign out/ }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await signIn(page, referrer);
      await page.goto('/settings');
      await heading(page, 'Settings');
      await page.locator('[role="switch"][aria-checked="true"]').first().waitFor();
      expect(await page.getByRole('switch', { name: 'Newsletter' }).getAttribute('aria-checked')).toBe('true');
      expect(await page.getByRole('switch', { name: 'Text Message' }).getAttribute('aria-checked')).toBe('false');

      // Profile: a new photo replaces the old one, on the page and in the header.
      await page.getByRole('link', { name: 'Open your profile' }).click();
      await heading(page, 'Profile');
      await page.getByRole('heading', { level: 2, name: 'Rhea Referrer' }).waitFor();
      const oldPhoto = await page.getByRole('img', { name: 'Your profile photo' }).getAttribute('src');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, '61-profile');
      await page.getByRole('button', { name: 'Change photo' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change your photo' });
      await dialog.getByLabel('New profile photo').setInputFiles(path.join(fixturesDirectory, 'profile-photo.jpg'));
      await dialog.getByRole('img', { name: 'Preview of your new profile photo' }).waitFor();
      await dialog.getByRole('button', { name: 'Save photo' }).click();
      await page.getByText('Your profile photo is saved.').waitFor();
      await dialog.waitFor({ state: 'detached' });
      const newPhoto = await page.getByRole('img', { name: 'Your profile photo' }).getAttribute('src');
      expect(newPhoto).toMatch(/^\/api\/v1\/files\//);
      expect(newPhoto).not.toBe(oldPhoto);
      expect(await page.getByRole('link', { name: 'Open your profile' }).locator('img').getAttribute('src')).toBe(newPhoto);
      await page.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>('img.profile__photo');
        return Boolean(image?.complete && image.naturalWidth > 0);
      });
      await screenshotBothWidths(page, '61-profile-new-photo');

      await page.goto('/privacy');
      await heading(page, 'Terms and privacy');
      await page.getByRole('navigation', { name: 'Online banking' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, '62-privacy-customer');

      // Invite: Copy puts the link on the clipboard.
      await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Invite' }).click();
      await heading(page, 'Invite a friend');
      await page.getByRole('button', { name: 'Get $10.00 referral bonus' }).click();
      await page.getByText('No referrals yet').waitFor();
      const link = await page.getByRole('textbox', { name: 'Your link' }).inputValue();
      expect(link).toMatch(new RegExp(`^${baseUrl()}/signup\\?ref=[0-9A-Z]{8}$`));
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Referral link copied').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, '63-invite');

      // A friend opens the link, reads the terms signed out, and signs up with the code.
      const friend = await openPage(browser());
      const friendEmail = uniqueEmail('profile-friend');
      await friend.page.goto(link);
      await heading(friend.page, 'Create your account');
      const code = new URL(link).searchParams.get('ref');
      expect(await friend.page.getByRole('textbox', { name: /Referral code/ }).inputValue()).toBe(code);
      const [terms] = await Promise.all([friend.context.waitForEvent('page'), friend.page.getByRole('link', { name: 'terms and conditions' }).click()]);
      await heading(terms, 'Terms and privacy');
      expect(pathOf(terms)).toBe('/privacy');
      await terms.getByText(/within 30 days/).waitFor();
      expect(await terms.getByRole('navigation', { name: 'Online banking' }).count()).toBe(0);
      await expectNoAxeViolations(terms);
      await screenshotBothWidths(terms, '64-privacy-signed-out');
      await terms.close();
      await friend.page.getByRole('textbox', { name: 'First name' }).fill('Fiona');
      await friend.page.getByRole('textbox', { name: 'Last name' }).fill('Friendly');
      await friend.page.getByRole('textbox', { name: 'Email' }).fill(friendEmail);
      await friend.page.getByLabel('Password', { exact: true }).fill('tangerine lighthouse drift');
      await friend.page.getByLabel('Confirm password').fill('tangerine lighthouse drift');
      await friend.page.getByRole('checkbox', { name: /terms and conditions/ }).check();
      await friend.page.getByRole('button', { name: 'Create account' }).click();
      await heading(friend.page, 'Check your email');
      await friendSendsIdentity(friend.context, friendEmail);
      expect(friend.problems).toEqual([]);
      await friend.context.close();

      // The referrer sees the friend as pending, without their name.
      await page.reload();
      await heading(page, 'Invite a friend');
      const referrals = page.getByRole('table', { name: 'Your referrals' });
      await referrals.getByText('Pending').waitFor();
      expect(await page.getByText('Fiona').count()).toBe(0);

      // Staff approve the friend's identity in the console.
      const compliance = await createStaff('profile-compliance', 'compliance');
      const staff = await openPage(browser());
      await staffSignIn(staff.page, compliance);
      await staff.page
        .getByRole('navigation', { name: 'Back office' })
        .getByRole('link', { name: /Identity reviews/ })
        .click();
      await heading(staff.page, 'Identity reviews');
      await staff.page.getByRole('link', { name: 'Fiona Friendly' }).first().click();
      await heading(staff.page, 'Fiona Friendly');
      await staff.page.getByRole('button', { name: 'Approve' }).click();
      const approve = staff.page.getByRole('dialog', { name: 'Approve this identity?' });
      await approve.getByLabel('Reason').fill('Document matches the name and address entered');
      await approve.getByRole('button', { name: 'Approve' }).click();
      await staff.page.getByText(/Approved on .*: Document matches/).waitFor();
      expect(staff.problems).toEqual([]);
      await staff.context.close();

      // The referrer's open Invite page shows it paid; the money is in checking and in the history.
      await referrals.getByText('Paid', { exact: true }).waitFor({ timeout: bonusArrivesTimeoutMs });
      await page.getByText(/1 paid \(\$10\.00\)/).waitFor();
      await screenshotBothWidths(page, '65-invite-paid');
      await page.goto('/transaction-history');
      await heading(page, 'History');
      await page.getByRole('cell', { name: 'Referral bonus' }).first().waitFor();
      const bonusRow = page.getByRole('row').filter({ hasText: 'Referral bonus' });
      // The seed's history columns: Status, Date, Description, Category, Amount.
      expect((await bonusRow.getByRole('cell').allTextContents()).map((text) => text.trim())).toEqual([
        'Completed',
        expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        'Referral bonus',
        'Credit',
        '$10.00',
      ]);
      await screenshotBothWidths(page, '66-history-bonus');
      await page.goto('/notifications');
      await page.getByText('Your friend Fiona joined: $10.00 referral bonus paid into your checking account.').waitFor();
      await page.goto('/dashboard');
      await heading(page, 'Your dashboard');
      await page.getByText('$60.00').first().waitFor();

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );
});
