import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffMessage } from '@strongroom/contracts/staff-messages.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const support = {
  status: 200,
  body: { staff: { id: 's2', email: 'sam@bank.test', role: 'support', permissions: ['customers.read', 'messages.reply'] } },
};

const message: StaffMessage = {
  id: '0b5f8f58-2f5e-4d57-9d5a-3b1c6a8e0a11',
  source: 'contact_form',
  customerId: null,
  name: 'Vera Visitor',
  email: 'vera@visitor.test',
  phone: '+1 202 555 0100',
  subject: 'Opening hours',
  text: 'When are you <i>open</i>?',
  status: 'open',
  receivedAt: new Date(Date.now() - 15 * 60_000).toISOString(),
  answeredAt: null,
  replies: [],
  conversation: [
    {
      id: '0b5f8f58-2f5e-4d57-9d5a-3b1c6a8e0a11',
      author: 'customer',
      text: 'When are you <i>open</i>?',
      staffEmail: null,
      createdAt: new Date(Date.now() - 15 * 60_000).toISOString(),
    },
  ],
};

const hostile = '<img src=x onerror=alert(1)>';
const secureMessage: StaffMessage = {
  ...message,
  id: '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a00',
  source: 'secure_message',
  customerId: '2a3b4c5d-6e7f-4081-9a2b-3c4d5e6f7a8b',
  name: 'Cara Customer',
  email: 'cara@example.com',
  subject: hostile,
  text: hostile,
  conversation: [
    { id: 'p1', author: 'customer', text: hostile, staffEmail: null, createdAt: new Date(Date.now() - 20 * 60_000).toISOString() },
    { id: 'r1', author: 'staff', text: 'Looking into it', staffEmail: 'sam@bank.test', createdAt: new Date(Date.now() - 10 * 60_000).toISOString() },
    { id: 'p2', author: 'customer', text: 'Any news?', staffEmail: null, createdAt: new Date(Date.now() - 5 * 60_000).toISOString() },
  ],
};

describe('/ops/messages', () => {
  it('lists open messages with how long they wait, and counts them in the navigation', async () => {
    renderApp('/ops/messages', {
      'GET /api/v1/staff/me': support,
      'GET /api/v1/staff/messages': { status: 200, body: { items: [message], nextCursor: null, total: 1 } },
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Opening hours')).toBeTruthy();
    expect(within(table).getByText('15 min')).toBeTruthy();
    expect(await within(screen.getByRole('navigation', { name: 'Back office' })).findByLabelText('1 waiting')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Identity reviews/ })).toBeNull();
  });

  it('says so when nothing waits', async () => {
    renderApp('/ops/messages', {
      'GET /api/v1/staff/me': support,
      'GET /api/v1/staff/messages': { status: 200, body: { items: [], nextCursor: null, total: 0 } },
    });
    expect(await screen.findByText('No messages are waiting')).toBeTruthy();
  });

  it('replies after a confirmation; an empty reply is refused before anything is sent; text stays text', async () => {
    const user = userEvent.setup();
    const replyText = 'We open at <b>9</b>.';
    const sent = vi.fn((init: RequestInit | undefined) => {
      expect(jsonBodyOf(init)).toEqual({ text: replyText });
      return {
        status: 200,
        body: {
          message: {
            ...message,
            status: 'answered',
            answeredAt: new Date().toISOString(),
            replies: [{ id: 'r1', text: replyText, staffId: 's2', staffEmail: 'sam@bank.test', createdAt: new Date().toISOString() }],
          },
        },
      };
    });
    renderApp('/ops/messages', {
      'GET /api/v1/staff/me': support,
      'GET /api/v1/staff/messages': { status: 200, body: { items: [message], nextCursor: null, total: 1 } },
      [`POST /api/v1/staff/messages/${message.id}/reply`]: sent,
    });
    await user.click(await screen.findByRole('button', { name: 'Open the message from Vera Visitor: Opening hours' }));
    expect(screen.getByText('When are you <i>open</i>?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('field should not be empty')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Reply/), replyText);
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this reply?' });
    expect(sent).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Your reply to vera@visitor.test was sent.')).toBeTruthy();
    expect(sent).toHaveBeenCalledTimes(1);
    expect(document.querySelector('main i, main b')).toBeNull();
  });

  it('shows a secure message as a conversation with the customer linked, HTML as text, and says the reply goes to the thread', async () => {
    const user = userEvent.setup();
    const sent = vi.fn(() => ({ status: 200, body: { message: { ...secureMessage, status: 'answered', answeredAt: new Date().toISOString() } } }));
    renderApp('/ops/messages', {
      'GET /api/v1/staff/me': support,
      'GET /api/v1/staff/messages': { status: 200, body: { items: [secureMessage], nextCursor: null, total: 1 } },
      [`POST /api/v1/staff/messages/${secureMessage.id}/reply`]: sent,
    });
    expect(await screen.findByText('Secure message')).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: `Open the message from Cara Customer: ${hostile}` }));
    const conversation = screen.getByRole('list', { name: 'Conversation' });
    expect(within(conversation).getAllByRole('listitem')).toHaveLength(3);
    expect(within(conversation).getByText(hostile)).toBeTruthy();
    expect(within(conversation).getByText('Any news?')).toBeTruthy();
    expect(document.querySelector('main img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Cara Customer' }).getAttribute('href')).toBe(`/ops/customers/${secureMessage.customerId}`);
    await user.type(screen.getByLabelText(/^Reply/), 'It is sorted.');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this reply?' });
    expect(within(dialog).getByText(/sees it in their secure messages at once/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Your reply to Cara Customer (secure message) was sent.')).toBeTruthy();
  });
});
