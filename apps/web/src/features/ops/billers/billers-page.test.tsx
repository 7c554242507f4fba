import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffBiller } from '@strongroom/contracts/billers.ts';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, validationFailed, type FakeAnswer } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const me = (role: StaffRole): FakeAnswer => ({
  status: 200,
  body: { staff: { id: 's1', email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } },
});

const power: StaffBiller = {
  id: '00000000-0000-4000-8000-0000000b0001',
  name: 'City Power',
  category: 'electricity',
  accountNumberPattern: '\\d{10}',
  accountNumberExample: '0123456789',
  paymentMethod: 'ach',
  routingNumber: '021000021',
  accountNumber: '123456789',
  active: true,
};

const water: StaffBiller = {
  id: '00000000-0000-4000-8000-0000000b0002',
  name: 'Lake Water Co',
  category: 'water',
  accountNumberPattern: 'W-\\d{6}',
  accountNumberExample: 'W-123456',
  paymentMethod: 'simulator',
  routingNumber: null,
  accountNumber: null,
  active: false,
};

const listed = (items: StaffBiller[]): FakeAnswer => ({ status: 200, body: { items } });

describe('/ops/billers', () => {
  it('lists the billers by category with their pattern, how they are paid and whether active', async () => {
    renderApp('/ops/billers', { 'GET /api/v1/staff/me': me('operations'), 'GET /api/v1/staff/billers': listed([power, water]) });
    const electricity = await screen.findByRole('table', { name: 'Electricity billers' });
    const row = within(electricity).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByText('City Power')).toBeTruthy();
    expect(within(row).getByText('\\d{10}')).toBeTruthy();
    expect(within(row).getByText('e.g. 0123456789')).toBeTruthy();
    expect(within(row).getByText('ACH to routing 021000021, account 123456789')).toBeTruthy();
    expect(within(row).getByText('Active')).toBeTruthy();
    const waterTable = screen.getByRole('table', { name: 'Water billers' });
    expect(within(waterTable).getByText('Rail simulator (sandbox)')).toBeTruthy();
    expect(within(waterTable).getByText('Inactive')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Gas billers' })).getByText('No gas billers.')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 })).toHaveLength(12);
    const navigation = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(navigation).getByRole('link', { name: 'Billers' })).toBeTruthy();
  });

  it("says the schema's messages, then the server's refusal beside its field, and adds after a confirmation", async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    let refuse = true;
    renderApp('/ops/billers', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/billers': listed([power]),
      'POST /api/v1/staff/billers': (init) => {
        posted.push(jsonBodyOf(init));
        if (refuse) {
          refuse = false;
          return validationFailed({ name: 'a biller of this category already has this name' });
        }
        return { status: 201, body: { biller: { ...power, id: 'new', name: 'Metro Gas', category: 'gas' } } };
      },
    });
    await screen.findByRole('table', { name: 'Electricity billers' });
    await user.click(screen.getByRole('button', { name: 'Add a biller' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a biller' });
    await user.type(within(dialog).getByLabelText('Name'), 'M');
    await user.type(within(dialog).getByLabelText('Account number pattern'), 'G[[0-9]{{8}');
    await user.type(within(dialog).getByLabelText('Example account number'), 'X1');
    await user.type(within(dialog).getByLabelText("Biller's routing number"), '12345');
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'no');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(await within(dialog).findByText('choose a category')).toBeTruthy();
    expect(within(dialog).getByText('the name needs at least 2 characters')).toBeTruthy();
    expect(within(dialog).getByText('the example does not match the pattern')).toBeTruthy();
    expect(within(dialog).getByText('a routing number is 9 digits')).toBeTruthy();
    expect(within(dialog).getByText("enter the biller's account number at its bank")).toBeTruthy();
    expect(within(dialog).getByText('the reason needs at least 3 characters')).toBeTruthy();
    expect(posted).toEqual([]);

    await user.selectOptions(within(dialog).getByLabelText('Category'), 'gas');
    await user.type(within(dialog).getByLabelText('Name'), 'etro Gas');
    await user.clear(within(dialog).getByLabelText('Example account number'));
    await user.type(within(dialog).getByLabelText('Example account number'), 'G12345678');
    await user.selectOptions(within(dialog).getByLabelText('How the bank pays it'), 'simulator');
    expect(within(dialog).queryByLabelText("Biller's routing number")).toBeNull();
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 't listed yet');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(await within(dialog).findByText('Category: Gas')).toBeTruthy();
    expect(within(dialog).getByText('How it is paid: Rail simulator (sandbox)')).toBeTruthy();
    expect(posted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Add the biller' }));

    expect(await within(dialog).findByText('a biller of this category already has this name')).toBeTruthy();
    expect(within(dialog).getByLabelText('Name')).toBe(document.activeElement);
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Metro Gas East');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Add the biller' }));
    expect(await screen.findByText('Metro Gas added.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted).toHaveLength(2);
    expect(posted[1]).toEqual({
      name: 'Metro Gas East',
      category: 'gas',
      accountNumberPattern: 'G[0-9]{8}',
      accountNumberExample: 'G12345678',
      paymentMethod: 'simulator',
      routingNumber: null,
      accountNumber: null,
      active: true,
      reason: 'not listed yet',
    });
  });

  it('edits a biller, showing what changes before it saves', async () => {
    const user = userEvent.setup();
    const put = vi.fn((init: RequestInit | undefined) => ({ status: 200, body: { biller: { ...power, ...(jsonBodyOf(init) as object) } } }));
    renderApp('/ops/billers', {
      'GET /api/v1/staff/me': me('operations'),
      'GET /api/v1/staff/billers': listed([power, water]),
      [`PUT /api/v1/staff/billers/${power.id}`]: put,
    });
    await user.click(await screen.findByRole('button', { name: 'Edit City Power' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit City Power' });
    expect((within(dialog).getByLabelText('Name') as HTMLInputElement).value).toBe('City Power');
    await user.clear(within(dialog).getByLabelText("Biller's bank account number"));
    await user.type(within(dialog).getByLabelText("Biller's bank account number"), '99887766');
    await user.click(within(dialog).getByLabelText('Active: customers can choose this biller'));
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'New bank details from the biller');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    const changes = within(await within(dialog).findByRole('list'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(changes).toEqual([
      'Bank account number: 123456789 → 99887766',
      'Status: Active: customers can choose it → Inactive: hidden from customers',
      'Reason: New bank details from the biller',
    ]);
    expect(put).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Back to the form' }));
    expect(within(dialog).getByLabelText('Category')).toBe(document.activeElement);
    expect((within(dialog).getByLabelText("Biller's bank account number") as HTMLInputElement).value).toBe('99887766');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Save the changes' }));
    expect(await screen.findByText('City Power: changes saved.')).toBeTruthy();
    expect(jsonBodyOf(put.mock.calls[0]?.[0])).toEqual({
      name: 'City Power',
      category: 'electricity',
      accountNumberPattern: '\\d{10}',
      accountNumberExample: '0123456789',
      paymentMethod: 'ach',
      routingNumber: '021000021',
      accountNumber: '99887766',
      active: false,
      reason: 'New bank details from the biller',
    });
  });

  it('offers only ACH in production, where the rail simulator pays no biller', async () => {
    const user = userEvent.setup();
    renderApp(
      '/ops/billers',
      { 'GET /api/v1/staff/me': me('admin'), 'GET /api/v1/staff/billers': listed([power]) },
      { name: 'Strongroom', mode: 'production' },
    );
    await user.click(await screen.findByRole('button', { name: 'Add a biller' }));
    const method = within(await screen.findByRole('dialog', { name: 'Add a biller' })).getByLabelText('How the bank pays it');
    expect(
      within(method)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['ACH credit to its bank account']);
  });

  it('says when there are no billers, and when they could not be loaded', async () => {
    renderApp('/ops/billers', { 'GET /api/v1/staff/me': me('admin'), 'GET /api/v1/staff/billers': listed([]) });
    expect(await screen.findByText('No billers yet')).toBeTruthy();
    cleanup();
    queryClient.clear();
    renderApp('/ops/billers', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/billers': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    expect(await screen.findByText('The billers could not be loaded')).toBeTruthy();
  });

  it('is not in the navigation of a role without billers.manage; opening it asks nothing', async () => {
    expect(rolePermissions.support).not.toContain('billers.manage');
    const { fetchMock } = renderApp('/ops/billers', { 'GET /api/v1/staff/me': me('support') });
    const navigation = await screen.findByRole('navigation', { name: 'Back office' });
    expect(within(navigation).queryByRole('link', { name: 'Billers' })).toBeNull();
    expect(within(navigation).getByRole('link', { name: 'Customers' })).toBeTruthy();
    expect(await screen.findByText('Your role (support) cannot use this page: ask an administrator if you need it.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/staff/billers'))).toBe(false);
  });
});
