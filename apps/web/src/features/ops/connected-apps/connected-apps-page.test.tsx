import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataRecipient } from '@strongroom/contracts/connected-apps.ts';
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

const key = { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uE2Gd3bM', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' } as const;

const pennywise: DataRecipient = {
  id: '00000000-0000-4000-8000-0000000a0001',
  clientId: 'app_AAAAAAAAAAAAAAAAAAAAAA',
  name: 'Pennywise',
  logoUrl: null,
  contactEmail: 'dev@pennywise.example',
  redirectUris: ['https://pennywise.example/cb'],
  allowedScopes: ['fdx:accountdetailed:read', 'fdx:transactions:read', 'fdx:statements:read'],
  jwks: { keys: [key] },
  rateLimitPerMinute: 120,
  enabled: true,
  activeConsents: 3,
  createdAt: '2026-11-01T10:00:00.000Z',
};
const taxPal: DataRecipient = {
  ...pennywise,
  id: '00000000-0000-4000-8000-0000000a0002',
  clientId: 'app_BBBBBBBBBBBBBBBBBBBBBB',
  name: 'TaxPal',
  enabled: false,
  activeConsents: 0,
};

const listed = (items: DataRecipient[]): FakeAnswer => ({ status: 200, body: { items } });
const base = { 'GET /api/v1/staff/me': me('admin'), 'GET /api/v1/staff/data-recipients': listed([pennywise, taxPal]) };

describe('/ops/connected-apps', () => {
  it('lists the apps with their client id, the data they may ask for in words, their connected customers and status', async () => {
    renderApp('/ops/connected-apps', base);
    const table = await screen.findByRole('table', { name: 'Connected apps' });
    const [, first, second] = within(table).getAllByRole('row') as HTMLElement[];
    expect(within(first as HTMLElement).getByText('Pennywise')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('app_AAAAAAAAAAAAAAAAAAAAAA')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('Account details and balances')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('Statements')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('3')).toBeTruthy();
    expect(within(first as HTMLElement).getByText('Enabled')).toBeTruthy();
    expect(within(second as HTMLElement).getByText('Disabled')).toBeTruthy();
    expect(within(second as HTMLElement).getByRole('button', { name: 'Enable TaxPal' })).toBeTruthy();
    const navigation = screen.getByRole('navigation', { name: 'Back office' });
    expect(within(navigation).getByRole('link', { name: 'Connected apps' })).toBeTruthy();
  });

  it("registers an app: the form's messages first, then the server's beside their fields, then the client id", async () => {
    const user = userEvent.setup();
    const posted: unknown[] = [];
    const answers: FakeAnswer[] = [
      validationFailed({ 'jwks.keys.0': 'this is not a valid public key' }),
      { status: 409, body: { error: { code: 'conflict', message: 'Another connected app already has this name' } } },
      { status: 201, body: { recipient: { ...pennywise, id: 'new', name: 'Budgetly', clientId: 'app_CCCCCCCCCCCCCCCCCCCCCC', activeConsents: 0 } } },
    ];
    renderApp('/ops/connected-apps', {
      ...base,
      'POST /api/v1/staff/data-recipients': (init) => {
        posted.push(jsonBodyOf(init));
        return answers.shift() as FakeAnswer;
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Register an app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Register an app' });
    await user.type(within(dialog).getByLabelText('Redirect URIs'), 'http://budgetly.example/cb');
    await user.type(within(dialog).getByLabelText('Public keys (JWKS)'), '{{"kty": "EC"}');
    await user.click(within(dialog).getByRole('button', { name: 'Register the app' }));
    expect(await within(dialog).findByText('line 1: enter an https address (http only on localhost), without a #fragment')).toBeTruthy();
    expect(within(dialog).getByText('this is not a JWKS: a JSON object with a "keys" list')).toBeTruthy();
    expect(within(dialog).getByText('allow at least one kind of data')).toBeTruthy();
    expect(within(dialog).getByLabelText('Reason (kept in the audit log)').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(posted).toEqual([]);

    await user.type(within(dialog).getByLabelText('Name'), 'Budgetly');
    await user.type(within(dialog).getByLabelText('Contact email'), 'dev@budgetly.example');
    await user.clear(within(dialog).getByLabelText('Redirect URIs'));
    await user.type(within(dialog).getByLabelText('Redirect URIs'), 'https://budgetly.example/cb{Enter}http://localhost:5173/cb');
    await user.click(within(dialog).getByLabelText(/^Transactions/));
    await user.clear(within(dialog).getByLabelText('Public keys (JWKS)'));
    await user.click(within(dialog).getByLabelText('Public keys (JWKS)'));
    await user.paste(JSON.stringify({ keys: [key] }));
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Partner agreement signed');
    await user.click(within(dialog).getByRole('button', { name: 'Register the app' }));
    expect(await within(dialog).findByText('this is not a valid public key')).toBeTruthy();
    expect(within(dialog).getByLabelText('Public keys (JWKS)')).toBe(document.activeElement);

    await user.click(within(dialog).getByRole('button', { name: 'Register the app' }));
    expect(await within(dialog).findByText('Another connected app already has this name')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Register the app' }));
    expect(await screen.findByText('Budgetly registered. Its client id is app_CCCCCCCCCCCCCCCCCCCCCC.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted).toHaveLength(3);
    expect(posted[2]).toEqual({
      name: 'Budgetly',
      logoUrl: null,
      contactEmail: 'dev@budgetly.example',
      redirectUris: ['https://budgetly.example/cb', 'http://localhost:5173/cb'],
      allowedScopes: ['fdx:transactions:read'],
      jwks: { keys: [key] },
      rateLimitPerMinute: 120,
      reason: 'Partner agreement signed',
    });
  });

  it('asks once more before an edit takes data away from connected customers, then saves every field again', async () => {
    const user = userEvent.setup();
    const put = vi.fn((init: RequestInit | undefined) => ({ status: 200, body: { recipient: { ...pennywise, ...(jsonBodyOf(init) as object) } } }));
    renderApp('/ops/connected-apps', { ...base, [`PUT /api/v1/staff/data-recipients/${pennywise.id}`]: put });
    await user.click(await screen.findByRole('button', { name: 'Edit Pennywise' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Pennywise' });
    expect((within(dialog).getByLabelText('Redirect URIs') as HTMLTextAreaElement).value).toBe('https://pennywise.example/cb');
    expect((within(dialog).getByLabelText(/^Statements/) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByLabelText(/^Statements/));
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Statements are not in the agreement');
    await user.click(within(dialog).getByRole('button', { name: 'Save the changes' }));
    const warning = await within(dialog).findByRole('alert');
    expect(warning.textContent).toContain('Pennywise stops reading Statements at once for its 3 connected customers');
    expect(within(dialog).getByRole('button', { name: 'Take the data away' })).toBe(document.activeElement);
    expect(put).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Back to the form' }));
    expect(within(dialog).getByRole('button', { name: 'Save the changes' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Save the changes' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Take the data away' }));
    expect(await screen.findByText('Pennywise: changes saved.')).toBeTruthy();
    expect(jsonBodyOf(put.mock.calls[0]?.[0])).toEqual({
      name: 'Pennywise',
      logoUrl: null,
      contactEmail: 'dev@pennywise.example',
      redirectUris: ['https://pennywise.example/cb'],
      allowedScopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
      jwks: { keys: [key] },
      rateLimitPerMinute: 120,
      reason: 'Statements are not in the agreement',
    });
  });

  it('disables an app after saying how many customers lose access, with a reason; enables another', async () => {
    const user = userEvent.setup();
    const disable = vi.fn((init: RequestInit | undefined) => {
      void init;
      return { status: 200, body: { recipient: { ...pennywise, enabled: false, activeConsents: 0 } } };
    });
    const enable = vi.fn(() => ({ status: 200, body: { recipient: { ...taxPal, enabled: true } } }));
    renderApp('/ops/connected-apps', {
      ...base,
      [`POST /api/v1/staff/data-recipients/${pennywise.id}/disable`]: disable,
      [`POST /api/v1/staff/data-recipients/${taxPal.id}/enable`]: enable,
    });
    await user.click(await screen.findByRole('button', { name: 'Disable Pennywise' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable Pennywise' });
    expect(dialog.textContent).toContain('3 connected customers lose access at once');
    await user.click(within(dialog).getByRole('button', { name: 'Disable Pennywise' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    expect(disable).not.toHaveBeenCalled();
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'The app leaked data');
    await user.click(within(dialog).getByRole('button', { name: 'Disable Pennywise' }));
    expect(await screen.findByText('Pennywise is disabled.')).toBeTruthy();
    expect(jsonBodyOf(disable.mock.calls[0]?.[0])).toEqual({ reason: 'The app leaked data' });

    await user.click(screen.getByRole('button', { name: 'Enable TaxPal' }));
    const enabling = await screen.findByRole('dialog', { name: 'Enable TaxPal' });
    expect(enabling.textContent).toContain('Consents that ended when it was disabled stay ended');
    await user.type(within(enabling).getByLabelText('Reason (kept in the audit log)'), 'Fixed and reviewed');
    await user.click(within(enabling).getByRole('button', { name: 'Enable TaxPal' }));
    expect(await screen.findByText('TaxPal is enabled.')).toBeTruthy();
    expect(enable).toHaveBeenCalledTimes(1);
  });

  it('says when there are no apps, and when they could not be loaded', async () => {
    renderApp('/ops/connected-apps', { 'GET /api/v1/staff/me': me('admin'), 'GET /api/v1/staff/data-recipients': listed([]) });
    expect(await screen.findByText('No connected apps yet')).toBeTruthy();
    cleanup();
    queryClient.clear();
    renderApp('/ops/connected-apps', {
      'GET /api/v1/staff/me': me('admin'),
      'GET /api/v1/staff/data-recipients': { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    expect(await screen.findByText('The connected apps could not be loaded')).toBeTruthy();
  });

  it.each(['support', 'compliance', 'operations', 'finance'] as const)('is not in the navigation of %s; opening it asks nothing', async (role) => {
    expect(rolePermissions[role]).not.toContain('connected_apps.manage');
    const { fetchMock } = renderApp('/ops/connected-apps', { 'GET /api/v1/staff/me': me(role) });
    const navigation = await screen.findByRole('navigation', { name: 'Back office' });
    expect(within(navigation).queryByRole('link', { name: 'Connected apps' })).toBeNull();
    expect(await screen.findByText(`Your role (${role}) cannot use this page: ask an administrator if you need it.`)).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/staff/data-recipients'))).toBe(false);
  });
});
