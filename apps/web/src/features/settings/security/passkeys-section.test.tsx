import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Passkey } from '@strongroom/contracts/passkeys.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, type FakeApi } from '../../../test/render-app.tsx';
import { stepUpRequired } from '../../../test/payment-fixtures.ts';
import { PasskeysSection } from './passkeys-section.tsx';
import { callsTo, renderSection as renderWithApi } from '../../../test/render-section.tsx';

function renderSection(api: FakeApi) {
  return renderWithApi(<PasskeysSection />, api);
}

const browserWebAuthn = vi.hoisted(() => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
vi.mock('@simplewebauthn/browser', () => browserWebAuthn);

const laptop: Passkey = {
  id: 'pk-1',
  name: 'Work laptop',
  createdAt: '2026-11-02T10:00:00.000Z',
  lastUsedAt: '2026-11-20T08:30:00.000Z',
  backedUp: true,
  transports: ['internal'],
};
const registration = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'oA' },
  clientExtensionResults: {},
};

beforeEach(() => {
  browserWebAuthn.browserSupportsWebAuthn.mockReturnValue(true);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
  queryClient.clear();
});

describe('Passkeys section', () => {
  it('lists the passkeys with their dates, and says so when there are none', async () => {
    renderSection({ 'GET /api/v1/me/passkeys': { status: 200, body: { items: [laptop] } } });
    expect(await screen.findByText('Work laptop')).toBeTruthy();
    expect(screen.getByText('Added Nov 2, 2026 · Last used Nov 20, 2026 · Synced to your other devices')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Rename passkey Work laptop' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove passkey Work laptop' })).toBeTruthy();
  });

  it('shows an empty state, and a load failure with a retry', async () => {
    let fail = true;
    renderSection({
      'GET /api/v1/me/passkeys': () =>
        fail ? { status: 500, body: { error: { code: 'internal_error', message: 'Boom' } } } : { status: 200, body: { items: [] } },
    });
    expect(await screen.findByText('We could not load your passkeys')).toBeTruthy();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: /try again/i }));
    expect(await screen.findByText('No passkeys yet')).toBeTruthy();
  });

  it('adds a passkey: a name, the step-up code, the device prompt, then the answer with the name', async () => {
    const user = userEvent.setup({ delay: null });
    const options = { challenge: 'abc', rp: { id: 'localhost', name: 'Bank' } };
    browserWebAuthn.startRegistration.mockResolvedValue(registration);
    let added = false;
    const fetchMock = renderSection({
      'GET /api/v1/me/passkeys': () => ({ status: 200, body: { items: added ? [laptop] : [] } }),
      'POST /api/v1/me/passkeys/registration/options': (init) =>
        new Headers(init?.headers).get('x-step-up') === 'ch-9' ? { status: 200, body: { options } } : stepUpRequired('ch-9'),
      'POST /api/v1/step-up/ch-9': { status: 200, body: { verified: true } },
      'POST /api/v1/me/passkeys': () => {
        added = true;
        return { status: 201, body: { passkey: laptop } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a passkey' });
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(within(dialog).getByText('Give this passkey a name')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: 'Passkey name' }), 'Work laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));

    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(stepUp).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');

    expect(await screen.findByText('Passkey “Work laptop” was added')).toBeTruthy();
    expect(browserWebAuthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: options });
    const [post] = callsTo(fetchMock, 'POST', '/api/v1/me/passkeys');
    expect(jsonBodyOf(post?.[1])).toEqual({ name: 'Work laptop', response: registration });
    expect(await screen.findByText('Work laptop')).toBeTruthy();
  });

  it('says what happened when the device prompt is closed, and adds nothing', async () => {
    const user = userEvent.setup({ delay: null });
    browserWebAuthn.startRegistration.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
    );
    const fetchMock = renderSection({
      'GET /api/v1/me/passkeys': { status: 200, body: { items: [] } },
      'POST /api/v1/me/passkeys/registration/options': (init) =>
        new Headers(init?.headers).get('x-step-up') ? { status: 200, body: { options: { challenge: 'abc' } } } : stepUpRequired('ch-2'),
      'POST /api/v1/step-up/ch-2': { status: 200, body: { verified: true } },
    });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    await user.type(await screen.findByRole('textbox', { name: 'Passkey name' }), 'Phone');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(stepUp).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');
    const problem = await screen.findByRole('alertdialog', { name: 'The passkey was not added' });
    expect(problem.textContent).toContain('The passkey prompt was closed or timed out. Nothing was changed.');
    expect(callsTo(fetchMock, 'POST', '/api/v1/me/passkeys')).toHaveLength(0);
  });

  it('renames a passkey', async () => {
    const user = userEvent.setup({ delay: null });
    const fetchMock = renderSection({
      'GET /api/v1/me/passkeys': { status: 200, body: { items: [laptop] } },
      'PATCH /api/v1/me/passkeys/pk-1': (init) => ({ status: 200, body: { passkey: { ...laptop, ...(jsonBodyOf(init) as object) } } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Rename passkey Work laptop' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename passkey' });
    const field = within(dialog).getByRole('textbox', { name: 'Passkey name' });
    expect((field as HTMLInputElement).value).toBe('Work laptop');
    await user.clear(field);
    await user.type(field, 'Old laptop');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passkey renamed to “Old laptop”')).toBeTruthy();
    expect(jsonBodyOf(callsTo(fetchMock, 'PATCH', '/api/v1/me/passkeys/pk-1')[0]?.[1])).toEqual({ name: 'Old laptop' });
  });

  it('removes a passkey only after the confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const fetchMock = renderSection({
      'GET /api/v1/me/passkeys': { status: 200, body: { items: [laptop] } },
      'DELETE /api/v1/me/passkeys/pk-1': { status: 204 },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Work laptop' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Remove this passkey?' })).toBeNull());
    expect(callsTo(fetchMock, 'DELETE', '/api/v1/me/passkeys/pk-1')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Remove passkey Work laptop' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Passkey “Work laptop” was removed')).toBeTruthy();
    expect(callsTo(fetchMock, 'DELETE', '/api/v1/me/passkeys/pk-1')).toHaveLength(1);
  });

  it('tells a browser without passkeys, and turns the add button off', async () => {
    browserWebAuthn.browserSupportsWebAuthn.mockReturnValue(false);
    renderSection({ 'GET /api/v1/me/passkeys': { status: 200, body: { items: [] } } });
    expect(await screen.findByText('This browser cannot use passkeys. You can still use your password and codes.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toHaveProperty('disabled', true);
  });
});
