import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client.ts';
import { renderApp, signedIn } from '../../../test/render-app.tsx';
import { identityFollowMs } from './success-page.tsx';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  queryClient.clear();
});

function meWithIdentity(identityStatus: 'submitted' | 'approved' | 'rejected') {
  return { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, identityStatus, accountVerified: identityStatus === 'approved' } } };
}

describe('/success', () => {
  it('follows the identity check and says when the accounts are ready, then stops asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let identityStatus: 'submitted' | 'approved' = 'submitted';
    const { fetchMock } = renderApp('/success', { 'GET /api/v1/me': () => meWithIdentity(identityStatus) });
    expect(await screen.findByText(/We are checking your identity document/)).toBeTruthy();
    const meCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/v1/me')).length;

    identityStatus = 'approved';
    await act(() => vi.advanceTimersByTimeAsync(identityFollowMs));
    expect(await screen.findByText(/Your accounts are ready/)).toBeTruthy();
    expect(screen.queryByText(/We are checking your identity document/)).toBeNull();

    const callsWhenReady = meCalls();
    await act(() => vi.advanceTimersByTimeAsync(identityFollowMs * 3));
    expect(meCalls()).toBe(callsWhenReady);
  });

  it('says the identity is being checked, not that banking is ready, while staff check it', async () => {
    renderApp('/success', { 'GET /api/v1/me': meWithIdentity('submitted') });
    expect(await screen.findByText(/We are checking your identity/)).toBeTruthy();
    expect(screen.getByText(/Your accounts open once we have checked your identity, usually within a day/)).toBeTruthy();
    expect(screen.queryByText(/is ready/)).toBeNull();
    expect(screen.queryByText(/customer care/i)).toBeNull();
  });

  it('says banking is ready once the identity is confirmed', async () => {
    renderApp('/success', { 'GET /api/v1/me': meWithIdentity('approved') });
    expect(await screen.findByText(/Your online banking is ready/)).toBeTruthy();
  });

  it('says why nothing opened when the document was refused, and where to send it again', async () => {
    renderApp('/success', { 'GET /api/v1/me': meWithIdentity('rejected') });
    expect(await screen.findByText(/We could not confirm your identity/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send it again' }).getAttribute('href')).toBe('/registeration');
  });
});
