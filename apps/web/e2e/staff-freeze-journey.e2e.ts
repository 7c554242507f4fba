import { describe, expect, inject, it } from 'vitest';
import { freezeCustomerMessages } from '@strongroom/contracts/staff-customers.ts';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';
import { createFundedCustomer, heading, signInPastWelcome } from './support/money.ts';
import { createStaff, staffSignIn } from './support/staff.ts';
import { screenshotBothWidths } from './support/screenshots.ts';

/** An admin in the console and the customer in their own browser (decision 053). */
const journeyTimeoutMs = 150_000;
const internalReason = 'Checking source of funds, SAR draft 7781';
const review = freezeCustomerMessages.find((item) => item.id === 'review');
if (!review) throw new Error('no review message in the list');
const customerMessage = `${review.text} Thank you for your patience.`;

describe.skipIf(!inject('chromiumPath'))('a staff freeze', () => {
  const browser = useBrowser();

  it(
    'an admin freezes with an internal reason and an edited message from the list; the customer reads the message and never the reason',
    async () => {
      const customer = await createFundedCustomer('staff-freeze', 10_000, { firstName: 'Fiona', lastName: 'Freezewell' });
      const admin = await createStaff('freeze-admin', 'admin');
      const office = await openPage(browser());
      await staffSignIn(office.page, admin);

      await office.page.goto('/ops/customers');
      await office.page.getByRole('searchbox', { name: 'Name, email or account number' }).fill(customer.email);
      await office.page.getByRole('button', { name: 'Search' }).click();
      await office.page
        .getByRole('table', { name: /^Customers matching/ })
        .getByRole('link', { name: 'Fiona Freezewell' })
        .click();
      await heading(office.page, 'Fiona Freezewell');

      await office.page.getByRole('button', { name: 'Freeze', exact: true }).click();
      const dialog = office.page.getByRole('dialog', { name: 'Freeze Fiona Freezewell' });
      await dialog.getByRole('textbox', { name: /^Internal reason/ }).fill(internalReason);
      await dialog.getByRole('radio', { name: new RegExp(review.label) }).check();
      const message = dialog.getByRole('textbox', { name: /^What the customer sees/ });
      expect(await message.inputValue()).toBe(review.text);
      await message.press('End');
      await message.pressSequentially(' Thank you for your patience.');
      await dialog.getByText(`edited from “${review.label}”`, { exact: false }).waitFor();
      await expectNoAxeViolations(office.page);
      await screenshotBothWidths(office.page, 'staff-freeze-01-dialog');
      await dialog.getByRole('button', { name: 'Freeze Fiona Freezewell' }).click();

      // The staff page shows both texts.
      const freeze = office.page.getByRole('region', { name: 'Freeze', exact: true });
      await freeze.getByText(internalReason).waitFor();
      await freeze.getByText(customerMessage).waitFor();
      await office.page.getByRole('button', { name: 'Unfreeze' }).waitFor();
      await expectNoAxeViolations(office.page);
      await screenshotBothWidths(office.page, 'staff-freeze-02-staff-page');

      // The customer signs in (the freeze ended their sessions) and reads the message only.
      const own = await openPage(browser());
      await signInPastWelcome(own.page, customer);
      const banner = own.page.locator('.frozen-account-banner');
      await banner.getByText('Your account is frozen').waitFor();
      await banner.getByText(customerMessage).waitFor();
      expect(await own.page.content()).not.toContain('SAR draft');
      await expectNoAxeViolations(own.page);
      await screenshotBothWidths(own.page, 'staff-freeze-03-customer-banner');

      await own.page.goto('/notifications');
      await heading(own.page, 'Notifications');
      await own.page.getByText(customerMessage, { exact: false }).first().waitFor();
      expect(await own.page.content()).not.toContain('SAR draft');
      const me = await (await own.page.request.get('/api/v1/me')).text();
      expect(me).not.toContain('SAR draft');

      expect(office.problems).toEqual([]);
      expect(own.problems).toEqual([]);
      await office.context.close();
      await own.context.close();
    },
    journeyTimeoutMs,
  );
});
