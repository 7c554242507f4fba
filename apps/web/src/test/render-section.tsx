import type { ReactElement } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { ToastProvider } from '../components/ui/toast.tsx';
import { queryClient } from '../lib/query-client.ts';
import type { FakeAnswer, FakeApi } from './render-app.tsx';

/** Renders one Security section with a fake API (and a /login route to land on after signing out). */
export function renderSection(section: ReactElement, api: FakeApi) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const route = api[`${init?.method ?? 'GET'} ${url.pathname}`] ?? { status: 404, body: { error: { code: 'not_found', message: 'No route' } } };
    const answer = typeof route === 'function' ? route(init) : route;
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/settings/security']}>
          <Routes>
            <Route path="/settings/security" element={section} />
            <Route path="/login" element={<h1>Sign in</h1>} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return fetchMock;
}

export function callsTo(fetchMock: ReturnType<typeof renderSection>, method: string, path: string) {
  return fetchMock.mock.calls.filter(([input, init]) => (init?.method ?? 'GET') === method && new URL(String(input), 'http://localhost').pathname === path);
}

/** A 403 step_up_required with the customer's methods. */
export function stepUpWith(challengeId: string, methods: string[], message = 'For your security, enter the 6-digit code we sent to •••• 0101.'): FakeAnswer {
  return { status: 403, body: { error: { code: 'step_up_required', message, challengeId, methods } } };
}
