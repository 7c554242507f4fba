import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const me = (role: StaffRole) => ({ status: 200, body: { staff: { id: 's1', email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } } });
const stored = {
  address: '1 Ledger Lane, Springfield',
  phone: '+1 202 555 0100',
  supportEmail: 'help@bank.test',
  homeCounters: [],
  updatedAt: '2026-11-24T00:00:00.000Z',
};

/**
 * The phone field once an administrator may type in it. The form shows the settings read-only until
 * the signed-in staff member's permissions arrive; typing before that is lost, which on a busy machine
 * once let a test save the stored number with a digit added instead of refusing '12'.
 */
async function editablePhone(): Promise<HTMLInputElement> {
  const phone = (await screen.findByLabelText('Phone', undefined, { timeout: 5000 })) as HTMLInputElement;
  await waitFor(() => expect(phone.matches(':disabled')).toBe(false), { timeout: 5000 });
  return phone;
}

describe('/ops/settings', () => {
  it('an admin changes the phone number and saves it with an optional reason', async () => {
    const user = userEvent.setup();
    renderApp('/ops/settings', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/settings': { status: 200, body: stored },
      'PUT /api/v1/staff/settings': (init) => {
        expect(jsonBodyOf(init)).toEqual({ address: stored.address, phone: '+1 202 555 0199', supportEmail: stored.supportEmail, homeCounters: [] });
        return { status: 200, body: { ...stored, phone: '+1 202 555 0199' } };
      },
    });
    const phone = await editablePhone();
    await user.clear(phone);
    await user.type(phone, '+1 202 555 0199');
    await user.click(screen.getByRole('button', { name: 'Save and publish' }));
    expect(await screen.findByText(/Saved\. The contact page shows the new details/)).toBeTruthy();
  });

  it('an admin adds a figure for the home page, which says none are shown until then, and saves it', async () => {
    const user = userEvent.setup();
    const put = vi.fn((init: RequestInit | undefined) => ({ status: 200, body: { ...stored, ...(jsonBodyOf(init) as object) } }));
    renderApp('/ops/settings', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/settings': { status: 200, body: stored },
      'PUT /api/v1/staff/settings': put,
    });
    expect(await screen.findByText('No figures: the home page shows none.', undefined, { timeout: 5000 })).toBeTruthy();
    await editablePhone();
    await user.click(screen.getByRole('button', { name: 'Add a figure' }));
    const figure = screen.getByRole('group', { name: 'Figure 1' });
    await user.type(within(figure).getByLabelText('Label'), 'Customers');
    await user.clear(within(figure).getByLabelText('Figure'));
    await user.type(within(figure).getByLabelText('Figure'), 'many');
    await user.click(screen.getByRole('button', { name: 'Save and publish' }));
    expect(await within(figure).findByText('a whole number, 0 or more', undefined, { timeout: 5000 })).toBeTruthy();
    expect(put).not.toHaveBeenCalled();

    await user.clear(within(figure).getByLabelText('Figure'));
    await user.type(within(figure).getByLabelText('Figure'), '12400');
    await user.click(within(figure).getByLabelText('At least this many (shows a +)'));
    await user.click(screen.getByRole('button', { name: 'Save and publish' }));
    expect(await screen.findByText(/Saved\. The contact page shows the new details/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(jsonBodyOf(put.mock.calls[0]?.[0])).toMatchObject({ homeCounters: [{ label: 'Customers', value: 12_400, atLeast: true }] });
  });

  it('refuses a phone number without enough digits before sending anything', async () => {
    const user = userEvent.setup();
    const put = vi.fn(() => ({ status: 200, body: stored }));
    renderApp('/ops/settings', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/settings': { status: 200, body: stored },
      'PUT /api/v1/staff/settings': put,
    });
    const phone = await editablePhone();
    await user.clear(phone);
    await user.type(phone, '12');
    await user.click(screen.getByRole('button', { name: 'Save and publish' }));
    // The form checks on submit; under a busy CI the resolver can take longer than findBy's default second.
    expect(await screen.findByText(/a phone number has 7 to 15 digits/, undefined, { timeout: 5000 })).toBeTruthy();
    expect(put).not.toHaveBeenCalled();
  });

  it('shows a support member the settings read-only', async () => {
    renderApp('/ops/settings', { 'GET /api/v1/staff/me': me('support'), 'GET /api/v1/staff/settings': { status: 200, body: stored } });
    const phone = (await screen.findByLabelText('Phone', undefined, { timeout: 5000 })) as HTMLInputElement;
    expect(phone.value).toBe(stored.phone);
    expect(phone.matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save and publish' })).toBeNull();
    expect(screen.getByText('Only an administrator can change these settings.')).toBeTruthy();
  });
});
