import { useEffect, useSyncExternalStore } from 'react';
import type { PublicSettings } from '@strongroom/contracts/settings.ts';
import { apiRequest, ApiError, isRecord } from './api-client.ts';

/**
 * `GET /api/v1/settings/public`: the bank's address, phone and support email for the footer and
 * the contact page, and in a sandbox the demo customer's sign-in for the login page. docs/product.md
 * D7: fetched at once, cached for the visit, never blocking a render.
 *
 * This is the one request of the public site, which has a 110 KB JavaScript budget, so it uses a
 * module-level cache instead of TanStack Query, and checks the answer by hand instead of with the
 * zod schema (the server validates its answer with `publicSettingsSchema` before sending it).
 */
function parseDemoSignIn(value: unknown): PublicSettings['demoSignIn'] {
  if (!isRecord(value)) return undefined;
  const { email, password } = value;
  return typeof email === 'string' && typeof password === 'string' ? { email, password } : undefined;
}

/** The home page's figures; one of the wrong shape is left out rather than shown wrong. */
function parseHomeCounters(value: unknown): PublicSettings['homeCounters'] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((counter: unknown) => {
    if (!isRecord(counter)) return [];
    const { label, value: figure, atLeast } = counter;
    return typeof label === 'string' && Number.isSafeInteger(figure) && typeof figure === 'number' && figure >= 0 && typeof atLeast === 'boolean'
      ? [{ label, value: figure, atLeast }]
      : [];
  });
}

export function parsePublicSettings(data: unknown): PublicSettings {
  if (isRecord(data)) {
    const { bankName, mode, address, phone, supportEmail } = data;
    if (
      typeof bankName === 'string' &&
      (mode === 'sandbox' || mode === 'production') &&
      typeof address === 'string' &&
      typeof phone === 'string' &&
      typeof supportEmail === 'string'
    ) {
      const demoSignIn = parseDemoSignIn(data.demoSignIn);
      return { bankName, mode, address, phone, supportEmail, homeCounters: parseHomeCounters(data.homeCounters), ...(demoSignIn ? { demoSignIn } : {}) };
    }
  }
  throw new ApiError({ status: 200, code: 'internal_error', message: 'The bank settings answer has an unexpected shape' });
}

export function getPublicSettings(): Promise<PublicSettings> {
  return apiRequest('/settings/public', { parse: parsePublicSettings });
}

export type PublicSettingsState = { status: 'loading' } | { status: 'success'; settings: PublicSettings } | { status: 'error'; error: ApiError };

const preRenderedState: PublicSettingsState = { status: 'loading' };
let state: PublicSettingsState = preRenderedState;
let inFlight: Promise<void> | null = null;
const listeners = new Set<() => void>();

function setState(next: PublicSettingsState) {
  state = next;
  for (const listener of listeners) listener();
}

/** Starts the request unless it is running or has succeeded; a failed one is tried again on the next page. */
export function loadPublicSettings(): Promise<void> {
  if (state.status === 'success') return Promise.resolve();
  inFlight ??= getPublicSettings()
    .then(
      (settings) => setState({ status: 'success', settings }),
      (error: unknown) =>
        setState({
          status: 'error',
          error: error instanceof ApiError ? error : new ApiError({ status: 0, code: 'internal_error', message: String(error) }),
        }),
    )
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Test seam: forget the cached answer. */
export function resetPublicSettingsCache() {
  state = preRenderedState;
  inFlight = null;
}

export function usePublicSettings(): PublicSettingsState {
  useEffect(() => {
    void loadPublicSettings();
  }, []);
  // The pre-rendered pages are rendered with nothing loaded yet, as a visitor's first paint is, and
  // React adopts them with that same state. It adopts the main content after the header and footer,
  // whose effect may have loaded the settings by then: the settings show right after adopting.
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => preRenderedState,
  );
}
