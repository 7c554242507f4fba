import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rolePermissions } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const admin = { status: 200, body: { staff: { id: 's1', email: 'admin@bank.test', role: 'admin', permissions: [...rolePermissions.admin] } } };
const grace = {
  id: 's2',
  email: 'grace@bank.test',
  role: 'support',
  status: 'active',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastSignInAt: '2026-11-23T09:30:00.000Z',
};
const alan = { id: 's3', email: 'alan@bank.test', role: 'compliance', status: 'disabled', createdAt: '2026-11-01T10:00:00.000Z', lastSignInAt: null };
const enrolment = {
  staffId: 's9',
  role: 'operations',
  totpSecret: 'JBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Strongroom:new%40bank.test?secret=JBSWY3DPEHPK3PXP',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><script>alert(1)</script><rect width="1" height="1"/></svg>',
};

describe('/ops/staff', () => {
  it('lists staff with role, status in words and last sign-in', async () => {
    renderApp('/ops/staff', { 'GET /api/v1/staff/me': admin, 'GET /api/v1/staff/members': { status: 200, body: { items: [grace, alan] } } });
    const table = await screen.findByRole('table', undefined, { timeout: 5000 });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]?.textContent).toContain('grace@bank.test');
    expect(rows[1]?.textContent).toContain('2026-11-23 09:30 UTC');
    expect(within(rows[1] ?? table).getByText('Active')).toBeTruthy();
    expect(within(rows[2] ?? table).getByText('Disabled')).toBeTruthy();
    expect(rows[2]?.textContent).toContain('Never');
    expect(within(table).getByRole('button', { name: 'Disable grace@bank.test' })).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Enable alan@bank.test' })).toBeTruthy();
  });

  it('offers no change of their own access to the signed-in admin', async () => {
    const self = { ...grace, id: 's1', email: 'admin@bank.test', role: 'admin' };
    renderApp('/ops/staff', { 'GET /api/v1/staff/me': admin, 'GET /api/v1/staff/members': { status: 200, body: { items: [self, grace] } } });
    const table = await screen.findByRole('table', undefined, { timeout: 5000 });
    await within(table).findByText(/another administrator changes your access/);
    expect(within(table).queryByRole('button', { name: 'Disable admin@bank.test' })).toBeNull();
    expect(within(table).getByRole('button', { name: 'Disable grace@bank.test' })).toBeTruthy();
  });

  it('creates a staff member and shows the second factor once, the QR code as an image, never as markup', async () => {
    const user = userEvent.setup();
    const { container } = renderApp('/ops/staff', {
      'GET /api/v1/staff/me': admin,
      'GET /api/v1/staff/members': { status: 200, body: { items: [] } },
      'POST /api/v1/staff/members': (init) => {
        expect(jsonBodyOf(init)).toEqual({ email: 'new@bank.test', password: 'a long new passphrase', role: 'operations', reason: 'joins the team' });
        return { status: 201, body: enrolment };
      },
    });
    await user.type(await screen.findByLabelText('Email', undefined, { timeout: 5000 }), 'new@bank.test');
    await user.type(screen.getByLabelText('Initial password'), 'a long new passphrase');
    await user.selectOptions(screen.getByLabelText('Role'), 'operations');
    await user.type(screen.getByLabelText(/^Reason/), 'joins the team');
    await user.click(screen.getByRole('button', { name: 'Add staff member' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Shown once/)).toBeTruthy();
    expect(within(dialog).getByText(enrolment.totpSecret)).toBeTruthy();
    expect(within(dialog).getByText(enrolment.otpauthUri)).toBeTruthy();
    const image = within(dialog).getByRole('img', { name: /QR code/ });
    expect(image.getAttribute('src')).toBe(`data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}`);
    expect(document.querySelector('script')).toBeNull();
    expect(container.ownerDocument.querySelector('svg rect')).toBeNull();
  });

  it('disables a member only after a confirmation with a reason', async () => {
    const user = userEvent.setup();
    const disable = vi.fn((init: RequestInit | undefined) => {
      expect(jsonBodyOf(init)).toEqual({ reason: 'left the bank' });
      return { status: 204 };
    });
    renderApp('/ops/staff', {
      'GET /api/v1/staff/me': admin,
      'GET /api/v1/staff/members': { status: 200, body: { items: [grace] } },
      'POST /api/v1/staff/members/s2/disable': disable,
    });
    await user.click(await screen.findByRole('button', { name: 'Disable grace@bank.test' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Disable this staff member' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Reason/), 'no');
    await user.click(within(dialog).getByRole('button', { name: 'Disable this staff member' }));
    expect(await within(dialog).findByText(/at least 3 characters/)).toBeTruthy();
    expect(disable).not.toHaveBeenCalled();
    await user.clear(within(dialog).getByLabelText(/Reason/));
    await user.type(within(dialog).getByLabelText(/Reason/), 'left the bank');
    await user.click(within(dialog).getByRole('button', { name: 'Disable this staff member' }));
    await vi.waitFor(() => expect(disable).toHaveBeenCalledOnce());
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('resets a second factor and shows the new QR code once', async () => {
    const user = userEvent.setup();
    renderApp('/ops/staff', {
      'GET /api/v1/staff/me': admin,
      'GET /api/v1/staff/members': { status: 200, body: { items: [grace] } },
      'POST /api/v1/staff/members/s2/reset-second-factor': { status: 200, body: { ...enrolment, staffId: 's2', role: 'support' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Reset the second factor of grace@bank.test' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('alertdialog');
    await user.type(within(dialog).getByLabelText(/Reason/), 'lost phone');
    await user.click(within(dialog).getByRole('button', { name: 'Reset the second factor' }));
    expect(await within(dialog).findByRole('img', { name: /QR code/ })).toBeTruthy();
    expect(within(dialog).getByText(/Shown once/)).toBeTruthy();
  });

  it('tells the admin that staff they add, enable, move to a role or reset are linked to them for four eyes; a disable is not', async () => {
    const user = userEvent.setup();
    renderApp('/ops/staff', { 'GET /api/v1/staff/me': admin, 'GET /api/v1/staff/members': { status: 200, body: { items: [grace, alan] } } });
    const link =
      'You become linked to them for four eyes: neither of you can complete a large release the other approved, and they cannot pair with anyone else you gave access to.';
    const form = await screen.findByRole('form', { name: 'Add a staff member' }, { timeout: 5000 });
    expect(within(form).getByText(`${link} Approvers independent of every administrator are created by the operator with create-staff.`)).toBeTruthy();
    for (const [button, grants] of [
      ['Enable alan@bank.test', true],
      ['Change the role of grace@bank.test', true],
      ['Reset the second factor of grace@bank.test', true],
      ['Disable grace@bank.test', false],
    ] as const) {
      await user.click(await screen.findByRole('button', { name: button }, { timeout: 5000 }));
      const dialog = await screen.findByRole('alertdialog');
      expect(dialog.textContent?.includes(link)).toBe(grants);
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    }
  });

  it('offers every role by its name in words, Finance included, when adding a member and when changing a role', async () => {
    const user = userEvent.setup();
    renderApp('/ops/staff', { 'GET /api/v1/staff/me': admin, 'GET /api/v1/staff/members': { status: 200, body: { items: [grace] } } });
    const roles = ['Support', 'Compliance', 'Operations', 'Administrator', 'Finance'];
    const picker = await screen.findByLabelText('Role', undefined, { timeout: 5000 });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(roles);
    expect(within(picker).getByRole('option', { name: 'Finance' }).getAttribute('value')).toBe('finance');
    await user.click(await screen.findByRole('button', { name: 'Change the role of grace@bank.test' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      within(within(dialog).getByLabelText('New role'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(roles);
  });
});

describe('/ops/account', () => {
  it('changes my own password', async () => {
    const user = userEvent.setup();
    renderApp('/ops/account', {
      'GET /api/v1/staff/me': admin,
      'POST /api/v1/staff/me/password': (init) => {
        expect(jsonBodyOf(init)).toEqual({ currentPassword: 'old passphrase', password: 'a brand new passphrase', confirmPassword: 'a brand new passphrase' });
        return { status: 204 };
      },
    });
    await user.type(await screen.findByLabelText('Current password', undefined, { timeout: 5000 }), 'old passphrase');
    await user.type(screen.getByLabelText('New password'), 'a brand new passphrase');
    await user.type(screen.getByLabelText('New password again'), 'a brand new passphrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password is changed.')).toBeTruthy();
  });
});
