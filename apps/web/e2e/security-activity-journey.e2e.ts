import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import { accountOf, createFundedCustomer, heading, signIn, signInPastWelcome } from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** Two browsers of one customer; one says "This wasn't me" and both are signed out. */
const journeyTimeoutMs = 150_000;

/** After the first visit the welcome may not show again: close it if it does. */
async function signInAgain(page: Page, customer: { email: string; password: string }): Promise<void> {
  await signIn(page, customer);
  const welcome = page.getByRole('dialog').getByRole('button', { name: 'Get started' });
  if (await welcome.isVisible().catch(() => false)) await welcome.click();
  await heading(page, 'Your dashboard');
}

describe.skipIf(!inject('chromiumPath'))('security activity', () => {
  const browser = useBrowser();

  it(
    '"This wasn\'t me" in one browser ends a second browser\'s session, and money movement is refused afterwards with the frozen banner',
    async () => {
      const customer = await createFundedCustomer('not-me', 50_000, { firstName: 'Nora', lastName: 'Notme' });
      const laptop = await openPage(browser());
      await signInPastWelcome(laptop.page, customer);
      const phone = await openPage(browser());
      await signInPastWelcome(phone.page, customer);

      await laptop.page.goto('/settings/activity');
      await heading(laptop.page, 'Security activity');
      const events = laptop.page.getByRole('list', { name: 'Security events' });
      await events.getByRole('heading', { name: 'Signed in' }).first().waitFor();
      await expectNoAxeViolations(laptop.page);
      await screenshotBothWidths(laptop.page, 'security-activity-01-list');

      await events
        .getByRole('button', { name: /^This wasn't me: Signed in/ })
        .first()
        .click();
      const dialog = laptop.page.getByRole('dialog', { name: 'This wasn’t you?' });
      await dialog.getByText(/Every device signed in to your account is signed out, this one too/).waitFor();
      await dialog.getByText(/No money can move from your account/).waitFor();
      await dialog.getByText(/Our support team gets a secure message with this event/).waitFor();
      await expectNoAxeViolations(laptop.page);
      await screenshotBothWidths(laptop.page, 'security-activity-02-confirm');
      await dialog.getByRole('button', { name: 'Sign out everywhere and freeze' }).click();
      await laptop.page.getByText(/Done: every device was signed out, money movement on your account is frozen/).waitFor();
      await laptop.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await screenshotBothWidths(laptop.page, 'security-activity-03-signed-out');

      // The other browser's session has ended too: its next page asks it to sign in.
      await phone.page.goto('/dashboard');
      await phone.page.getByText('Please sign in to continue. You will come back to the page you asked for.').waitFor();
      // Its cookie is still there, but the server no longer knows the session.
      expect((await phone.page.request.get('/api/v1/me')).status()).toBe(401);

      // Signed in again: the banner says the account is frozen, and money does not move.
      await signInAgain(laptop.page, customer);
      await laptop.page.getByText('Your account is frozen').waitFor();
      await laptop.page.getByText(/"This wasn't me" reported by the account holder about: Signed in/).waitFor();
      await laptop.page.goto('/transfer?to=own');
      await heading(laptop.page, 'Transfer within my accounts');
      await laptop.page.getByLabel('From account').selectOption(accountOf(customer, 'checking').id);
      await laptop.page.getByLabel('To account').selectOption(accountOf(customer, 'savings').id);
      await laptop.page.getByRole('textbox', { name: 'Amount' }).fill('10');
      await laptop.page.getByRole('textbox', { name: 'Message' }).fill('Should not move');
      await laptop.page.getByRole('button', { name: 'Continue' }).click();
      const confirmation = laptop.page.getByRole('dialog', { name: 'Confirm the transfer' });
      await confirmation.getByRole('button', { name: 'Confirm' }).click();
      await laptop.page
        .getByText(/Your account is frozen: you can still see everything, but no money can move/)
        .first()
        .waitFor();
      await screenshotBothWidths(laptop.page, 'security-activity-04-transfer-refused');

      // The report waits for support in Messages, and the timeline marks the event reported.
      await laptop.page.goto('/messages');
      await heading(laptop.page, 'Messages');
      await laptop.page.getByRole('list', { name: 'Your messages' }).getByRole('link', { name: "This wasn't me: Signed in" }).waitFor();
      await laptop.page.goto('/settings/activity');
      await heading(laptop.page, 'Security activity');
      await events.getByText('Reported').first().waitFor();
      await events.getByRole('heading', { name: /You reported an event/ }).waitFor();
      await expectNoAxeViolations(laptop.page);
      await screenshotBothWidths(laptop.page, 'security-activity-05-after-report');

      expect(laptop.problems).toEqual([]);
      expect(phone.problems).toEqual([]);
      await laptop.context.close();
      await phone.context.close();
    },
    journeyTimeoutMs,
  );
});
