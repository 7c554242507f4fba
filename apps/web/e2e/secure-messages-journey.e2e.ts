import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, viewports, useBrowser } from './support/browser.ts';
import { saveScreenshot, screenshotBothWidths } from './support/screenshots.ts';
import { createFundedCustomer, heading, signInPastWelcome } from './support/money.ts';
import { showMoreUntil } from './support/lists.ts';
import { createStaff, staffSignIn } from './support/staff.ts';

/** A customer and a staff member in two browsers; the answer travels by a live event. */
const journeyTimeoutMs = 150_000;
const hostile = '<img src=x onerror=alert(1)>';

/** The queue lists the longest wait first, 25 at a time: shows more until the message is there. */
async function openQueuedMessage(page: Page, name: string): Promise<void> {
  const open = page.getByRole('button', { name });
  await showMoreUntil(page, open);
  await open.click();
}

describe.skipIf(!inject('chromiumPath'))('secure messages', () => {
  const browser = useBrowser();

  it(
    "opens Live chat from Help, sends a message, and support's answer from the console arrives live without a reload",
    async () => {
      const customer = await createFundedCustomer('secure-msg', 10_000, { firstName: 'Mira', lastName: 'Messenger' });
      const support = await createStaff('secure-msg-support', 'support');
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);

      await page.goto('/help');
      await heading(page, 'Help');
      await page.getByRole('button', { name: 'How to withdraw' }).click();
      await page.getByText(/reaches the other bank by wire within 24 hours/).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'messages-01-help');

      await page.getByRole('link', { name: 'Live chat' }).click();
      await heading(page, 'Messages');
      const form = page.getByRole('form', { name: 'New message' });
      await form.getByRole('button', { name: 'Send message' }).click();
      await form.getByText('Please write a subject').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'messages-02-new-message-empty');
      const subject = `Card delivery ${Date.now()}`;
      await form.getByRole('textbox', { name: 'Subject' }).fill(subject);
      await form.getByRole('textbox', { name: 'Message' }).fill(`Has my card been posted? ${hostile}`);
      await form.getByRole('button', { name: 'Send message' }).click();
      await heading(page, subject);
      const conversation = page.getByRole('list', { name: 'Conversation' });
      await conversation.getByText(`Has my card been posted? ${hostile}`).waitFor();
      expect(await page.locator('main img').count()).toBe(0);
      await page.getByText('Waiting for our answer').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'messages-03-thread-waiting');
      // A reload would lose this: the answer must arrive without one.
      await page.evaluate(() => Object.assign(window, { journeyNoReload: true }));

      // Support answers in the back office.
      const backOffice = await openPage(browser());
      await staffSignIn(backOffice.page, support);
      await backOffice.page.goto('/ops/messages');
      await backOffice.page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
      await openQueuedMessage(backOffice.page, `Open the message from Mira Messenger: ${subject}`);
      const consoleConversation = backOffice.page.getByRole('list', { name: 'Conversation' });
      await consoleConversation.getByText(`Has my card been posted? ${hostile}`).waitFor();
      expect(await backOffice.page.locator('main img').count()).toBe(0);
      await backOffice.page.getByRole('link', { name: 'Mira Messenger' }).waitFor();
      const answer = 'Yes, it left yesterday and arrives within 3 business days.';
      await backOffice.page.getByRole('textbox', { name: /^Reply/ }).fill(answer);
      await expectNoAxeViolations(backOffice.page);
      // The console is read at 768 px and wider.
      await backOffice.page.setViewportSize({ width: 768, height: 1024 });
      await saveScreenshot(backOffice.page, 'identity', 'messages-04-console-thread-768', { fullPage: true });
      await backOffice.page.setViewportSize(viewports.desktop);
      await backOffice.page.getByRole('button', { name: 'Send reply' }).click();
      const confirm = backOffice.page.getByRole('dialog', { name: 'Send this reply?' });
      await confirm.getByText(/sees it in their secure messages at once/).waitFor();
      await confirm.getByRole('button', { name: 'Send' }).click();
      await backOffice.page.getByText('Your reply to Mira Messenger (secure message) was sent.').waitFor();

      // The customer's open thread shows it, live.
      await conversation.getByText(answer).waitFor();
      await page.getByText('Answered', { exact: true }).waitFor();
      expect(await page.evaluate(() => (window as unknown as { journeyNoReload?: boolean }).journeyNoReload)).toBe(true);
      await page.getByRole('link', { name: /^Notifications, [1-9]\d* unread$/ }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'messages-05-thread-answered');

      await page.getByRole('textbox', { name: 'Reply to support' }).fill('Thank you!');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await conversation.getByText('Thank you!').waitFor();

      await page.goto('/messages');
      await heading(page, 'Messages');
      await page.getByRole('list', { name: 'Your messages' }).getByRole('link', { name: subject }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'messages-06-list');

      expect(backOffice.problems).toEqual([]);
      await backOffice.context.close();
      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );
});
