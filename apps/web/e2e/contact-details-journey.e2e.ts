import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, useBrowser, viewports } from './support/browser.ts';
import { phoneCodePattern, readOutbox, uniqueEmail, uniquePhoneNumber } from './support/identity.ts';
import { answerStepUpBySms, createFundedCustomer, heading, signInPastWelcome } from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** Sign-in, two step-ups, a code to the new phone and a link to the new address. */
const journeyTimeoutMs = 180_000;

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewports.phone.width);
}

describe.skipIf(!inject('chromiumPath'))('contact details', () => {
  const browser = useBrowser();

  it(
    'at 390 px, a customer changes their phone with a code texted to the new number, then their email with a link sent to the new address',
    async () => {
      const customer = await createFundedCustomer('contact-details', 1_000);
      const { page, problems } = await openPage(browser(), { viewport: viewports.phone });
      await signInPastWelcome(page, customer);

      await page.goto('/settings');
      await heading(page, 'Settings');
      await page.getByRole('link', { name: /Contact details/ }).click();
      await heading(page, 'Contact details');
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);
      await screenshotBothWidths(page, 'contact-01-page');
      // The screenshots end at desktop width: back to the phone's.
      await page.setViewportSize(viewports.phone);

      // The phone: a code to the phone on file first, then a 4-digit code to the new number, read from the sandbox inbox.
      const { national, e164: newPhone } = uniquePhoneNumber();
      await page.getByLabel('New phone number').fill(national);
      await page.getByRole('button', { name: 'Text a code to the new number' }).click();
      await answerStepUpBySms(page, customer);
      const codeField = page.getByLabel('Code from the text message');
      await codeField.waitFor();
      const [, code = ''] = await readOutbox(newPhone, phoneCodePattern);
      await codeField.fill(code);
      await page.getByRole('button', { name: 'Confirm new number' }).click();
      await page.getByText(/Your phone number is now/).waitFor();
      await readOutbox(customer.phone, /changed to •••• \d{4}/);
      await expectNoSidewaysScroll(page);

      // The email: the step-up code now goes to the new phone; the link goes to the new address.
      const newEmail = uniqueEmail('contact-details-new');
      await page.getByLabel('New email address').fill(newEmail);
      await page.getByRole('button', { name: 'Send a confirmation link' }).click();
      await answerStepUpBySms(page, { phone: newPhone });
      await page.getByText(/We sent a link to/).waitFor();
      const [, token = ''] = await readOutbox(newEmail, /\/email-change\/([\w-]+)/);
      await page.goto(`/email-change/${token}`);
      await heading(page, 'Confirm your new email address');
      await page.getByRole('button', { name: 'Confirm new email address' }).click();
      await page.getByText(/Your email address is now/).waitFor();
      await readOutbox(customer.email, /was changed to/);
      await expectNoAxeViolations(page);
      await expectNoSidewaysScroll(page);

      // The security timeline names both changes.
      await page.goto('/settings/activity');
      await page.getByText('Phone number changed').first().waitFor();
      await page.getByText('Email address changed').first().waitFor();
      expect(problems).toEqual([]);
    },
    journeyTimeoutMs,
  );
});
