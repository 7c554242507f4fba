import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { expectNoAxeViolations, openPage, viewports, useBrowser } from './support/browser.ts';
import { accountOf, createFundedCustomer, heading, signIn, signInPastWelcome, unreadCount } from './support/money.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

const journeyTimeoutMs = 240_000;
/** A live event reaches an open page within moments; this is the most a journey waits for one. */
const liveUpdateTimeoutMs = 45_000;

/** The number shown on the bell, or null when it shows none. */
async function bellBadge(page: Page): Promise<string | null> {
  const badge = page.locator('.notification-bell__badge');
  return (await badge.count()) === 0 ? null : badge.textContent();
}

/** The tab's panel, once that tab is chosen. */
async function openTab(page: Page, name: 'My Bank' | 'Other Bank') {
  const tab = page.getByRole('tab', { name });
  await tab.click();
  await expect.poll(() => tab.getAttribute('aria-selected')).toBe('true');
  return page.getByRole('tabpanel', { name });
}

describe.skipIf(!inject('chromiumPath'))('beneficiaries, notifications, bill pay and the fraud warning', () => {
  const browser = useBrowser();

  it(
    'adds a beneficiary at another bank and one at this bank, each under its own tab, and deletes one after asking',
    async () => {
      const customer = await createFundedCustomer('beneficiaries', 50_000, { firstName: 'Bea' });
      const friend = await createFundedCustomer('beneficiary-friend', 10_000, { firstName: 'Felix', lastName: 'Okafor' });
      const friendChecking = accountOf(friend, 'checking');
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);

      // The way in is the phone's tab bar; wider screens list no link to beneficiaries.
      await page.setViewportSize(viewports.phone);
      await page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link', { name: 'Beneficiaries' }).click();
      await heading(page, 'Beneficiaries');
      await page.setViewportSize(viewports.desktop);
      const myBank = page.getByRole('tabpanel', { name: 'My Bank' });
      await myBank.getByRole('heading', { name: 'No beneficiaries at this bank' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'beneficiaries-01-empty');

      await page.getByRole('link', { name: 'Add beneficiary' }).click();
      await heading(page, 'Add beneficiary');
      const addButton = page.getByRole('button', { name: 'Add beneficiary' });
      await addButton.click();
      // The bank type and the five text fields each say they are needed.
      await page.getByText('field should not be empty').first().waitFor();
      expect(await page.getByText('field should not be empty').count()).toBe(6);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'beneficiaries-02-add-empty');

      await page.getByRole('radio', { name: 'Other bank' }).check();
      await page.getByRole('textbox', { name: 'Bank name' }).fill('First Harbor Bank');
      await page.getByRole('textbox', { name: 'Account name' }).fill('Morgan Lee');
      await page.getByRole('textbox', { name: 'Account number' }).fill('44556677');
      // The country is chosen from the ISO 3166 list; a SWIFT code is told international transfers are not offered.
      await page.getByRole('combobox', { name: 'Country name' }).selectOption('United States');
      await page.getByRole('textbox', { name: 'Routing number' }).fill('BARCGB22');
      await page.getByRole('textbox', { name: 'Routing number' }).blur();
      await page.getByText(/^International transfers are not offered yet/).waitFor();
      await page.getByRole('textbox', { name: 'Routing number' }).fill('011000015');
      expect(await page.getByText('field should not be empty').count()).toBe(0);
      await screenshotBothWidths(page, 'beneficiaries-03-add-other-bank');
      await addButton.click();

      await page.waitForURL('**/beneficiaries?tab=otherbank');
      await page.getByText('Morgan Lee was added to your beneficiaries').waitFor();
      // The tab that shows the new beneficiary is the one open, not 'My Bank'.
      expect(await page.getByRole('tab', { name: 'Other Bank' }).getAttribute('aria-selected')).toBe('true');
      const otherBank = page.getByRole('tabpanel', { name: 'Other Bank' });
      await otherBank.getByRole('heading', { level: 2, name: 'Morgan Lee' }).waitFor();
      await openTab(page, 'My Bank');
      await myBank.getByRole('heading', { name: 'No beneficiaries at this bank' }).waitFor();
      await openTab(page, 'Other Bank');
      await otherBank.getByText('44556677').waitFor();
      await otherBank.getByText('First Harbor Bank').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'beneficiaries-04-other-bank-tab');

      // Choosing this bank fills in its name and routing number.
      await page.getByRole('link', { name: 'Add beneficiary' }).click();
      await heading(page, 'Add beneficiary');
      await page.getByRole('radio', { name: 'This bank' }).check();
      expect(await page.getByRole('textbox', { name: 'Routing number' }).inputValue()).toBe(businessConstants.bankRoutingNumber);
      expect(await page.getByRole('textbox', { name: 'Bank name' }).inputValue()).not.toBe('');
      await page.getByRole('combobox', { name: 'Country name' }).selectOption('United States');
      // The customer's own account is refused: it is already on the transfer form.
      await page.getByRole('textbox', { name: 'Account name' }).fill(`${customer.firstName} ${customer.lastName}`);
      await page.getByRole('textbox', { name: 'Account number' }).fill(accountOf(customer, 'savings').number);
      await page.getByRole('button', { name: 'Add beneficiary' }).click();
      await page.getByText(/^This is one of your own accounts/).waitFor();
      // The name is checked against the account as paying checks it: a close one is told the name on the account.
      await page.getByRole('textbox', { name: 'Account name' }).fill('F Okafor');
      await page.getByRole('textbox', { name: 'Account number' }).fill(friendChecking.number);
      await page.getByRole('button', { name: 'Add beneficiary' }).click();
      await page.getByText('The name on this account is Felix Okafor. Save the payee with that name if it is who you want to pay.').waitFor();
      expect(await page.getByRole('textbox', { name: 'Account name' }).getAttribute('aria-invalid')).toBe('true');
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'beneficiaries-04b-name-check');
      await page.getByRole('textbox', { name: 'Account name' }).fill(`${friend.firstName} ${friend.lastName}`);
      await page.getByRole('button', { name: 'Add beneficiary' }).click();

      await page.waitForURL('**/beneficiaries?tab=mybank');
      await page.getByText('Felix Okafor was added to your beneficiaries').waitFor();
      await myBank.getByRole('heading', { level: 2, name: 'Felix Okafor' }).waitFor();
      await myBank.getByText(friendChecking.number).waitFor();
      expect(await myBank.getByRole('heading', { name: 'Morgan Lee' }).count()).toBe(0);
      await screenshotBothWidths(page, 'beneficiaries-05-my-bank-tab');

      // Deleting asks first, names the beneficiary, and then removes only that one.
      await openTab(page, 'Other Bank');
      await otherBank.getByRole('button', { name: 'Delete beneficiary: Morgan Lee' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this beneficiary?' });
      await confirm.getByText('Morgan Lee (44556677) will be removed from your beneficiaries.').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'beneficiaries-06-delete-confirm');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Morgan Lee was removed from your beneficiaries').waitFor();
      await otherBank.getByRole('heading', { name: 'No beneficiaries at other banks' }).waitFor();
      await openTab(page, 'My Bank');
      await myBank.getByRole('heading', { level: 2, name: 'Felix Okafor' }).waitFor();

      // What the page shows is what the bank kept.
      await page.reload();
      await heading(page, 'Beneficiaries');
      await myBank.getByRole('heading', { level: 2, name: 'Felix Okafor' }).waitFor();
      await openTab(page, 'Other Bank');
      await otherBank.getByRole('heading', { name: 'No beneficiaries at other banks' }).waitFor();

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it(
    'lists each sign-in from a new browser as a notification, marks them read when opened, deletes them after asking, and then says there are none',
    async () => {
      const customer = await createFundedCustomer('notifications', 10_000, { firstName: 'Noor' });
      const { context, page, problems } = await openPage(browser());
      await signInPastWelcome(page, customer);
      await expect.poll(() => unreadCount(page)).toBe(1);

      // A sign-in from another browser reaches the open page's bell.
      const elsewhere = await openPage(browser());
      await signIn(elsewhere.page, customer);
      await elsewhere.context.close();
      await expect.poll(() => unreadCount(page), { timeout: liveUpdateTimeoutMs }).toBe(2);
      expect(await bellBadge(page)).toBe('2');
      await screenshotBothWidths(page, 'notifications-01-bell');

      await page
        .getByRole('banner')
        .getByRole('link', { name: /^Notifications/ })
        .click();
      await heading(page, 'Notifications');
      const signIns = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'New sign-in' }) });
      await signIns.first().waitFor();
      expect(await signIns.count()).toBe(2);
      await signIns
        .first()
        .getByText(/^You signed in from .+ at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./)
        .waitFor();
      // Opening the page reads them all: the badge goes, and this visit still marks them "New".
      await expect.poll(() => unreadCount(page)).toBe(0);
      expect(await bellBadge(page)).toBeNull();
      expect(await signIns.getByText('New', { exact: true }).count()).toBe(2);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'notifications-02-list');

      await signIns.first().getByRole('button', { name: 'Delete notification: New sign-in' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this notification?' });
      await confirm.getByText('“New sign-in” will be removed from your notifications. This cannot be undone.').waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'notifications-03-delete-confirm');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Notification deleted').first().waitFor();
      await expect.poll(() => signIns.count()).toBe(1);

      await signIns.first().getByRole('button', { name: 'Delete notification: New sign-in' }).click();
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('heading', { name: 'No notifications' }).waitFor();
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'notifications-04-empty');

      // Read and deleted on the server too, not only on this page.
      await page.reload();
      await heading(page, 'Notifications');
      await page.getByRole('heading', { name: 'No notifications' }).waitFor();
      expect(await unreadCount(page)).toBe(0);

      expect(problems).toEqual([]);
      await context.close();
    },
    journeyTimeoutMs,
  );

  it('shows the twelve bills, each leading an approved customer to the billers of its kind', async () => {
    const customer = await createFundedCustomer('billpay', 10_000, { firstName: 'Bill' });
    const { context, page, problems } = await openPage(browser());
    await signInPastWelcome(page, customer);

    await page.getByRole('navigation', { name: 'Online banking' }).getByRole('link', { name: 'Bill Pay' }).click();
    await heading(page, 'Bill Pay');
    // The tiles are links once the accounts are known to be open (buttons while they load).
    const tiles = page.getByRole('main').getByRole('listitem').getByRole('link');
    await expect.poll(async () => tiles.count()).toBe(12);
    expect(await tiles.allTextContents()).toEqual([
      'Electricity',
      'Water Bill',
      'Gas Bill',
      'Food Order',
      'Airfare',
      'Cable',
      'Internet',
      'Hotel Booking',
      'Train tickets',
      'Bus Ticket',
      'Movie Ticket',
      'Other Bills',
    ]);
    expect(businessConstants.billPayCategoryCount).toBe(12);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'billpay-01-tiles');

    await page.getByRole('main').getByRole('link', { name: 'Internet' }).click();
    await page.waitForURL('**/billpay/internet');
    await page.getByText('Example Fiber Internet').first().waitFor();
    expect(await page.getByText('Account has not been approved').count()).toBe(0);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'billpay-02-internet');

    expect(problems).toEqual([]);
    await context.close();
  });

  it('warns a signed-out visitor of /tax against code and fee scams, and asks for nothing', async () => {
    const { context, page, problems } = await openPage(browser());
    await page.goto('/tax');
    await heading(page, 'We will never ask you for a tax code');
    await page.getByText('We will never ask you for a tax, COT, IMF, TAC, NRC or BSA code, or ask you to pay a fee to release your money').waitFor();
    await page.getByRole('heading', { level: 2, name: 'How a real review works' }).waitFor();
    await page.getByText('to see whether any of your transfers is being reviewed.').waitFor();
    expect(await page.getByRole('main').getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    // Nowhere to type a code: no text box, no form on the page.
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await page.locator('form').count()).toBe(0);
    await expectNoAxeViolations(page);
    await screenshotBothWidths(page, 'fraud-warning-01-tax');

    expect(problems).toEqual([]);
    await context.close();
  });
});
