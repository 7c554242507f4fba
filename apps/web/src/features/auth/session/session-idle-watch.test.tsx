import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { signedIn, unauthenticated, type FakeAnswer } from '../../../test/render-app.tsx';
import { SessionIdleWatch } from './session-idle-watch.tsx';

const { sessionIdleWarningMs, sessionIdleTimeoutMs } = businessConstants;
const minuteMs = 60_000;

function LoginStandIn() {
  const { state } = useLocation();
  return <h1>Sign in {JSON.stringify(state)}</h1>;
}

let meAnswer: FakeAnswer;
const fetchMock = vi.fn<typeof fetch>();

function calls(method: string, path: string): number {
  return fetchMock.mock.calls.filter(([url, init]) => String(url) === `/api/v1${path}` && (init?.method ?? 'GET') === method).length;
}

function renderWatch() {
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/dashboard']}>
        <Routes>
          <Route path="/dashboard" element={<SessionIdleWatch />} />
          <Route path="/login" element={<LoginStandIn />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Moves the clock and runs what was due, promises included. */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

beforeEach(() => {
  vi.useFakeTimers();
  meAnswer = signedIn;
  fetchMock.mockImplementation(async (input, init) => {
    const path = String(input);
    const answer: FakeAnswer = path.endsWith('/me') ? meAnswer : path.endsWith('/auth/logout') && init?.method === 'POST' ? { status: 204 } : { status: 404 };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  queryClient.clear();
});

describe('session idle warning', () => {
  it('asks "Still there?" after 13 minutes without activity, and not before', async () => {
    renderWatch();
    await wait(sessionIdleWarningMs - 1_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await wait(1_000);
    const dialog = screen.getByRole('alertdialog', { name: 'Still there?' });
    expect(dialog.textContent).toContain('You will be signed out in 02:00');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay signed in' }));
    await wait(30_000);
    expect(dialog.textContent).toContain('You will be signed out in 01:30');
  });

  it('counts a key press or a tap as activity: the warning moves 13 minutes on from it', async () => {
    renderWatch();
    await wait(10 * minuteMs);
    fireEvent.keyDown(window, { key: 'Tab' });
    await wait(10 * minuteMs);
    fireEvent.pointerDown(window);
    await wait(12 * minuteMs);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await wait(minuteMs);
    expect(screen.getByRole('alertdialog', { name: 'Still there?' })).toBeTruthy();
  });

  it('keeps an active customer’s session alive on the server with an occasional /me', async () => {
    renderWatch();
    for (let minute = 1; minute <= 12; minute++) {
      await wait(minuteMs);
      fireEvent.keyDown(window, { key: 'a' });
    }
    expect(calls('GET', '/me')).toBe(2);
  });

  it('"Stay signed in" asks /me, which refreshes the session, and closes the warning', async () => {
    renderWatch();
    await wait(sessionIdleWarningMs);
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await wait(0);
    expect(calls('GET', '/me')).toBe(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // A new 13 minutes starts from the answer.
    await wait(sessionIdleWarningMs - 1_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await wait(1_000);
    expect(screen.getByRole('alertdialog', { name: 'Still there?' })).toBeTruthy();
  });

  it('"Sign out" ends the session on the server and goes to the sign-in screen', async () => {
    renderWatch();
    await wait(sessionIdleWarningMs);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await wait(0);
    expect(calls('POST', '/auth/logout')).toBe(1);
    expect(screen.getByRole('heading', { name: 'Sign in {}' })).toBeTruthy();
  });

  it('signs out here at 15 minutes and shows the sign-in screen, saying why', async () => {
    renderWatch();
    await wait(sessionIdleTimeoutMs);
    expect(screen.getByRole('heading', { name: 'Sign in {"reason":"timed-out"}' })).toBeTruthy();
    expect(calls('POST', '/auth/logout')).toBe(1);
    expect(queryClient.getQueryData(['me'])).toBeUndefined();
  });

  it('signs out when "Stay signed in" finds the session already over on the server', async () => {
    renderWatch();
    await wait(sessionIdleWarningMs);
    meAnswer = unauthenticated;
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await wait(0);
    expect(screen.getByRole('heading', { name: 'Sign in {"reason":"timed-out"}' })).toBeTruthy();
  });

  it('is signed out at once when the device wakes up after 15 minutes asleep', async () => {
    renderWatch();
    // The clock moves while no timer runs, as on a laptop that slept.
    vi.setSystemTime(Date.now() + sessionIdleTimeoutMs + minuteMs);
    act(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await wait(0);
    expect(screen.getByRole('heading', { name: 'Sign in {"reason":"timed-out"}' })).toBeTruthy();
  });
});
