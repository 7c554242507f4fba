import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('contact form', () => {
  it('gives all five seed messages when sent empty, and focuses the first field', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/contact');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    for (const message of [
      'Please enter your name',
      'Please enter your email',
      'Please enter your number',
      'Please enter your subject',
      'Write your message',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Name' }));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/contact'))).toBe(false);
  });

  it('sends the message, shows the answer in a dialog and closes it with "Got it!"', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/contact', {
      'POST /api/v1/contact': { status: 201, body: { message: 'Thank you, we will answer within 24 hours.' } },
    });
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'ada@example.com');
    await user.type(screen.getByRole('textbox', { name: 'Phone' }), '+1 202 555 0101');
    await user.type(screen.getByRole('textbox', { name: 'Subject' }), 'Savings');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'How do I open a savings account?');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    const dialog = await screen.findByRole('dialog', { name: 'Message sent' });
    expect(dialog.textContent).toContain('Thank you, we will answer within 24 hours.');
    const post = fetchMock.mock.calls.find(([url, init]) => String(url) === '/api/v1/contact' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+1 202 555 0101',
      subject: 'Savings',
      message: 'How do I open a savings account?',
    });

    await user.click(screen.getByRole('button', { name: 'Got it!' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Message sent' })).toBeNull());
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', '');
  });

  it('shows why a message was not sent', async () => {
    const user = userEvent.setup();
    renderApp('/contact', {
      'POST /api/v1/contact': { status: 429, body: { error: { code: 'rate_limited', message: 'Too many messages. Try again later.' } } },
    });
    for (const [name, value] of [
      ['Name', 'Ada'],
      ['Email', 'ada@example.com'],
      ['Phone', '2025550101'],
      ['Subject', 'Hi'],
      ['Message', 'Hello'],
    ] as const) {
      await user.type(screen.getByRole('textbox', { name }), value);
    }
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Your message was not sent' });
    expect(dialog.textContent).toContain('Too many messages. Try again later.');
  });
});
