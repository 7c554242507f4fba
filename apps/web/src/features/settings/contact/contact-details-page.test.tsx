import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, type FakeAnswer } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const contact = {
  email: 'ada@example.com',
  phone: { number: '+12025550101', country: 'US' },
  address: { country: 'US', address: '12 Elm Street\nApartment 4', city: 'Springfield', state: 'IL', zipCode: '62701' },
  pendingEmail: null,
  pendingPhone: null,
};

function stepUp(challengeId: string): FakeAnswer {
  return {
    status: 403,
    body: { error: { code: 'step_up_required', message: 'For your security, enter the 6-digit code we sent to •••• 0101.', challengeId, methods: ['sms'] } },
  };
}

function callsTo(fetchMock: ReturnType<typeof renderApp>['fetchMock'], method: string, path: string) {
  return fetchMock.mock.calls.filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path);
}

async function answerCode(user: UserEvent) {
  const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
  await user.click(within(dialog).getByRole('textbox', { name: 'Digit 1 of 6' }));
  await user.keyboard('123456');
}

describe('/settings/contact', () => {
  it('shows the email, phone and two-line address on file, each with a labelled form', async () => {
    renderApp('/settings/contact', { 'GET /api/v1/me': signedIn, 'GET /api/v1/me/contact': { status: 200, body: contact } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Contact details' })).toBeTruthy();
    expect(await screen.findByText('ada@example.com')).toBeTruthy();
    expect(screen.getByText('+1 202 555 0101')).toBeTruthy();
    expect(screen.getByLabelText('New email address')).toBeTruthy();
    expect(screen.getByLabelText('New phone number')).toBeTruthy();
    expect((screen.getByLabelText(/^Street address/) as HTMLTextAreaElement).value).toBe('12 Elm Street\nApartment 4');
    expect((screen.getByLabelText(/^State/) as HTMLSelectElement).value).toBe('IL');
  });

  it('changes the email behind a code, then says where the link went', async () => {
    const user = userEvent.setup({ delay: null });
    let sent = false;
    const { fetchMock } = renderApp('/settings/contact', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/contact': () => ({
        status: 200,
        body: sent ? { ...contact, pendingEmail: { email: 'ada@new.example', expiresAt: '2026-12-01T09:00:00.000Z' } } : contact,
      }),
      'POST /api/v1/me/email-change': (init) => {
        if (new Headers(init?.headers).get('x-step-up') !== 'ch-1') return stepUp('ch-1');
        sent = true;
        return { status: 200, body: { sentTo: 'ada@new.example', expiresAt: '2026-12-01T09:00:00.000Z' } };
      },
      'POST /api/v1/step-up/ch-1': { status: 200, body: { verified: true } },
    });
    await user.type(await screen.findByLabelText('New email address'), 'ada@new.example');
    await user.click(screen.getByRole('button', { name: 'Send a confirmation link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText('The code works for 10 minutes and only for changing your email address.')).toBeTruthy();
    await answerCode(user);
    expect(await screen.findByText(/We sent a link to/)).toBeTruthy();
    expect(screen.getByText('ada@new.example')).toBeTruthy();
    const posts = callsTo(fetchMock, 'POST', '/api/v1/me/email-change');
    expect(posts).toHaveLength(2);
    expect(jsonBodyOf(posts[1]?.[1])).toEqual({ email: 'ada@new.example' });
  });

  it('puts "already used by another customer" under the email field', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp('/settings/contact', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/contact': { status: 200, body: contact },
      'POST /api/v1/me/email-change': {
        status: 409,
        body: {
          error: {
            code: 'email_taken',
            message: 'This email address is already used by another customer.',
            fields: { email: 'This email address is already used by another customer.' },
          },
        },
      },
    });
    await user.type(await screen.findByLabelText('New email address'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Send a confirmation link' }));
    expect(await screen.findByText('This email address is already used by another customer.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('checks a phone number and an address as sign-up does before sending anything', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp('/settings/contact', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/contact': { status: 200, body: { ...contact, address: null } },
    });
    await user.type(await screen.findByLabelText('New phone number'), '12');
    await user.click(screen.getByRole('button', { name: 'Text a code to the new number' }));
    expect(await screen.findByText('This is not a valid phone number for the chosen country')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Street address/), 'one{Enter}two{Enter}three');
    await user.type(screen.getByLabelText(/^ZIP code/), 'abc');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('use at most 2 lines')).toBeTruthy();
    expect(screen.getByText('choose a state from the list')).toBeTruthy();
    expect(screen.getByText('enter a 5-digit ZIP code, or ZIP+4 like 62701-1234')).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/v1/me/phone-change')).toHaveLength(0);
    expect(callsTo(fetchMock, 'PUT', '/api/v1/me/address')).toHaveLength(0);
  });

  it('confirms a new phone number with the code texted to it, and shows a wrong code under its field', async () => {
    const user = userEvent.setup({ delay: null });
    let changed = false;
    const { fetchMock } = renderApp('/settings/contact', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/contact': () => ({
        status: 200,
        body: changed
          ? { ...contact, phone: { number: '+13035550123', country: 'US' } }
          : { ...contact, pendingPhone: { sentTo: '•••• 0123', expiresAt: '2026-12-01T09:00:00.000Z' } },
      }),
      'POST /api/v1/me/phone-change/confirm': (init) => {
        if ((jsonBodyOf(init) as { code: string }).code !== '4321') {
          return {
            status: 400,
            body: {
              error: {
                code: 'validation_failed',
                message: 'Some fields are not valid',
                fields: { code: 'That code is not right. Check the text message and try again.' },
              },
            },
          };
        }
        changed = true;
        return { status: 200, body: { phone: { number: '+13035550123', country: 'US' } } };
      },
    });
    const code = await screen.findByLabelText('Code from the text message');
    await user.type(code, '1111');
    await user.click(screen.getByRole('button', { name: 'Confirm new number' }));
    expect(await screen.findByText('That code is not right. Check the text message and try again.')).toBeTruthy();
    await user.clear(screen.getByLabelText('Code from the text message'));
    await user.type(screen.getByLabelText('Code from the text message'), '4321');
    await user.click(screen.getByRole('button', { name: 'Confirm new number' }));
    expect(await screen.findByText(/Your phone number is now/)).toBeTruthy();
    expect(callsTo(fetchMock, 'POST', '/api/v1/me/phone-change/confirm')).toHaveLength(2);
  });

  it('saves a two-line address behind a code', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp('/settings/contact', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/me/contact': { status: 200, body: contact },
      'PUT /api/v1/me/address': (init) =>
        new Headers(init?.headers).get('x-step-up') === 'ch-2' ? { status: 200, body: { address: jsonBodyOf(init) } } : stepUp('ch-2'),
      'POST /api/v1/step-up/ch-2': { status: 200, body: { verified: true } },
    });
    const city = await screen.findByLabelText(/^City/);
    await user.clear(city);
    await user.type(city, 'Chicago');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    await answerCode(user);
    expect(await screen.findByText('Your postal address is saved. We emailed you about it.')).toBeTruthy();
    const puts = callsTo(fetchMock, 'PUT', '/api/v1/me/address');
    expect(jsonBodyOf(puts.at(-1)?.[1])).toEqual({ ...contact.address, city: 'Chicago' });
  });
});

describe('/email-change/:token', () => {
  const token = 'abcdefghijklmnopqrstuvwxyz012345678901234567';

  it('confirms the new address with a button, then says it is done', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp(`/email-change/${token}`, {
      'GET /api/v1/me': signedIn,
      'POST /api/v1/me/email-change/confirm': { status: 200, body: { email: 'ada@new.example' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Confirm new email address' }));
    expect(await screen.findByText('ada@new.example')).toBeTruthy();
    expect(jsonBodyOf(callsTo(fetchMock, 'POST', '/api/v1/me/email-change/confirm')[0]?.[1])).toEqual({ token });
  });

  it('says why an expired link does nothing', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(`/email-change/${token}`, {
      'GET /api/v1/me': signedIn,
      'POST /api/v1/me/email-change/confirm': {
        status: 400,
        body: { error: { code: 'verification_expired', message: 'This link has expired, was already used, or was sent for another sign-in.' } },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Confirm new email address' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This link has expired');
  });
});
