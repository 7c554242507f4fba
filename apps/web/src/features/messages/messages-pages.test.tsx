import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecureMessageThread } from '@strongroom/contracts/secure-messages.ts';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const hostile = '<img src=x onerror=alert(1)>';
const thread: SecureMessageThread = {
  id: '7d7c1c2a-1111-4a2b-8c3d-123456789abc',
  subject: hostile,
  status: 'answered',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastActivityAt: '2026-11-20T11:00:00.000Z',
  preview: 'We sent it yesterday.',
  messageCount: 2,
  reportedEventId: null,
  entries: [
    { id: 'p1', author: 'customer', text: hostile, createdAt: '2026-11-20T10:00:00.000Z' },
    { id: 'r1', author: 'bank', text: 'We sent it yesterday.', createdAt: '2026-11-20T11:00:00.000Z' },
  ],
};
const { entries: _entries, ...summary } = thread;

describe('/messages', () => {
  it('lists the threads with their status; HTML in a subject stays text', async () => {
    renderApp('/messages', { 'GET /api/v1/me': signedIn, 'GET /api/v1/messages': { status: 200, body: { items: [summary], nextCursor: null } } });
    const list = await screen.findByRole('list', { name: 'Your messages' });
    expect(within(list).getByRole('link', { name: hostile }).getAttribute('href')).toBe(`/messages/${thread.id}`);
    expect(within(list).getByText('Answered')).toBeTruthy();
    expect(document.querySelector('main img')).toBeNull();
  });

  it('says so when there are no messages, and shows an error with a retry when the list fails', async () => {
    renderApp('/messages', { 'GET /api/v1/me': signedIn, 'GET /api/v1/messages': { status: 200, body: { items: [], nextCursor: null } } });
    expect(await screen.findByText('No messages yet')).toBeTruthy();
    queryClient.clear();
    vi.unstubAllGlobals();
    renderApp('/messages', { 'GET /api/v1/me': signedIn, 'GET /api/v1/messages': { status: 500, body: { error: { code: 'internal', message: 'Down' } } } });
    expect(await screen.findByText('We could not load your messages')).toBeTruthy();
  });

  it('sends a new message after checking it; an empty one is refused before anything is sent', async () => {
    const user = userEvent.setup();
    const sent = vi.fn((init: RequestInit | undefined) => {
      expect(jsonBodyOf(init)).toEqual({ subject: 'Card', text: hostile });
      return { status: 201, body: { thread: { ...thread, subject: 'Card', status: 'waiting', entries: [thread.entries[0]], messageCount: 1 } } };
    });
    renderApp('/messages?new=1', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/messages': { status: 200, body: { items: [], nextCursor: null } },
      'POST /api/v1/messages': sent,
      [`GET /api/v1/messages/${thread.id}`]: { status: 200, body: { thread: { ...thread, subject: 'Card', status: 'waiting', entries: [thread.entries[0]] } } },
    });
    await user.click(await screen.findByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Please write a subject')).toBeTruthy();
    expect(screen.getByText('Please write your message')).toBeTruthy();
    expect(sent).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/^Subject/), 'Card');
    await user.type(
      screen.getByLabelText(/^Message/),
      hostile.replace(/[[{]/g, (bracket) => bracket + bracket),
    );
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Card' })).toBeTruthy();
    expect(sent).toHaveBeenCalledTimes(1);
    expect(within(screen.getByRole('list', { name: 'Conversation' })).getByText(hostile)).toBeTruthy();
    expect(document.querySelector('main img')).toBeNull();
  });

  it("puts the server's field message under the field", async () => {
    const user = userEvent.setup();
    renderApp('/messages?new=1', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/messages': { status: 200, body: { items: [], nextCursor: null } },
      'POST /api/v1/messages': {
        status: 400,
        body: { error: { code: 'validation_failed', message: 'Some fields are not valid', fields: { text: 'this is too long' } } },
      },
    });
    await user.type(await screen.findByLabelText(/^Subject/), 'Hi');
    await user.type(screen.getByLabelText(/^Message/), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('this is too long')).toBeTruthy();
  });
});

describe('/messages/{id}', () => {
  it('shows both sides as text, and sends a follow-up', async () => {
    const user = userEvent.setup();
    let followedUp = false;
    const followUp = vi.fn((init: RequestInit | undefined) => {
      expect(jsonBodyOf(init)).toEqual({ text: 'Thanks!' });
      followedUp = true;
      return {
        status: 201,
        body: {
          thread: {
            ...thread,
            status: 'waiting',
            entries: [...thread.entries, { id: 'p2', author: 'customer', text: 'Thanks!', createdAt: '2026-11-20T12:00:00.000Z' }],
          },
        },
      };
    });
    renderApp(`/messages/${thread.id}`, {
      'GET /api/v1/me': signedIn,
      [`GET /api/v1/messages/${thread.id}`]: () => ({ status: 200, body: { thread: followedUp ? { ...thread, status: 'waiting' } : thread } }),
      [`POST /api/v1/messages/${thread.id}/replies`]: followUp,
    });
    const conversation = await screen.findByRole('list', { name: 'Conversation' });
    expect(within(conversation).getByText(hostile)).toBeTruthy();
    expect(within(conversation).getByText('Strongroom Demo Bank support')).toBeTruthy();
    expect(within(conversation).getByText('We sent it yesterday.')).toBeTruthy();
    expect(document.querySelector('main img')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please write your message')).toBeTruthy();
    expect(followUp).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/^Reply to support/), 'Thanks!');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(screen.getByRole('list', { name: 'Conversation' })).findByText('Thanks!')).toBeTruthy();
    expect(followUp).toHaveBeenCalledTimes(1);
  });

  it("says the message was not found for someone else's or a missing thread", async () => {
    renderApp(`/messages/${thread.id}`, {
      'GET /api/v1/me': signedIn,
      [`GET /api/v1/messages/${thread.id}`]: { status: 404, body: { error: { code: 'not_found', message: 'No such message' } } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'This message was not found' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Messages' }).getAttribute('href')).toBe('/messages');
  });
});
