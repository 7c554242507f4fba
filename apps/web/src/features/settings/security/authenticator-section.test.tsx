import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { AuthenticatorSection, groupSecret } from './authenticator-section.tsx';
import { callsTo, renderSection, stepUpWith } from '../../../test/render-section.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const recoveryCodes = [
  'abcde-fghjk',
  'mnpqr-stuvw',
  'xyz23-45678',
  '9abcd-efghj',
  'kmnpq-rstuv',
  'wxyz2-34567',
  '89abc-defgh',
  'jkmnp-qrstu',
  'vwxyz-23456',
  '789ab-cdefg',
];
const notEnrolled = { status: 200, body: { enrolled: false, enrolledAt: null, recoveryCodesLeft: 0 } };
const enrolled = { status: 200, body: { enrolled: true, enrolledAt: '2026-11-20T10:00:00.000Z', recoveryCodesLeft: 10 } };

describe('AuthenticatorSection', () => {
  it('sets up an app after a step-up: QR code and key, a wrong code refused, then ten recovery codes shown once with Copy and "I saved them"', async () => {
    const user = userEvent.setup({ delay: null });
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    let confirmed = false;
    const fetchMock = renderSection(<AuthenticatorSection />, {
      'GET /api/v1/me/totp': () => (confirmed ? enrolled : notEnrolled),
      'POST /api/v1/me/totp': (init) =>
        new Headers(init?.headers).get('x-step-up') === 'ch-1'
          ? { status: 200, body: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/x', qrCode: 'data:image/svg+xml;base64,PHN2Zy8+' } }
          : stepUpWith('ch-1', ['sms']),
      'POST /api/v1/step-up/ch-1': { status: 200, body: { verified: true } },
      'POST /api/v1/me/totp/confirm': (init) => {
        const code = (JSON.parse(String(init?.body)) as { code: string }).code;
        if (code !== '654321')
          return {
            status: 400,
            body: { error: { code: 'validation_failed', message: 'Some fields are not valid', fields: { code: 'That code is not right.' } } },
          };
        confirmed = true;
        return { status: 200, body: { recoveryCodes } };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(stepUp).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('111111');

    expect((await screen.findByRole('img', { name: /QR code/ })).getAttribute('src')).toBe('data:image/svg+xml;base64,PHN2Zy8+');
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    await user.click(screen.getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('000000');
    expect(await screen.findByText('That code is not right.')).toBeTruthy();
    await user.click(screen.getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('654321');

    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(recoveryCodes.join('\n'));
    expect(await screen.findByText('Recovery codes copied')).toBeTruthy();
    const done = screen.getByRole('button', { name: 'Done' });
    expect((done as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'I saved my recovery codes' }));
    await user.click(done);
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull());
    expect(await screen.findByText(/10 of 10 recovery codes left/)).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/v1/me/totp/confirm')).toHaveLength(2);
  });

  it('removes the app only after a confirmation and a step-up', async () => {
    const user = userEvent.setup({ delay: null });
    let removed = false;
    const fetchMock = renderSection(<AuthenticatorSection />, {
      'GET /api/v1/me/totp': () => (removed ? notEnrolled : enrolled),
      'DELETE /api/v1/me/totp': (init) => {
        if (new Headers(init?.headers).get('x-step-up') !== 'ch-2') return stepUpWith('ch-2', ['totp', 'sms']);
        removed = true;
        return { status: 200, body: { removed: true } };
      },
      'POST /api/v1/step-up/ch-2': { status: 200, body: { verified: true } },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove the app' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove the authenticator app?' });
    expect(callsTo(fetchMock, 'DELETE', '/api/v1/me/totp')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(stepUp).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('222222');
    expect(await screen.findByText('The authenticator app is removed. Codes now come by text message.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeTruthy();
  });

  it('groups the key in fours for typing', () => {
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
  });
});
