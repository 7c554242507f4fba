import { screen } from '@testing-library/react';
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
const stored = { address: '1 Ledger Lane, Springfield', phone: '+1 202 555 0100', supportEmail: 'help@bank.test', updatedAt: '2026-11-24T00:00:00.000Z' };

describe('/ops/settings', () => {
  it('an admin changes the phone number and saves it with an optional reason', async () => {
    const user = userEvent.setup();
    renderApp('/ops/settings', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/settings': { status: 200, body: stored },
      'PUT /api/v1/staff/settings': (init) => {
        expect(jsonBodyOf(init)).toEqual({ address: stored.address, phone: '+1 202 555 0199', supportEmail: stored.supportEmail });
        return { status: 200, body: { ...stored, phone: '+1 202 555 0199' } };
      },
    });
    const phone = await screen.findByLabelText('Phone', undefined, { timeout: 5000 });
    await user.clear(phone);
    await user.type(phone, '+1 202 555 0199');
    await user.click(screen.getByRole('button', { name: 'Save and publish' }));
    expect(await screen.findByText(/Saved\. The contact page shows the new details/)).toBeTruthy();
  });

  it('refuses a phone number without enough digits before sending anything', async () => {
    const user = userEvent.setup();
    const put = vi.fn(() => ({ status: 200, body: stored }));
    renderApp('/ops/settings', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/settings': { status: 200, body: stored },
      'PUT /api/v1/staff/settings': put,
    });
    const phone = await screen.findByLabelText('Phone', undefined, { timeout: 5000 });
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
