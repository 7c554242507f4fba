import { useEffect, useSyncExternalStore } from 'react';
import { ApiError } from './api-client.ts';

/** A public page's answer: loading (also the pre-rendered state), loaded, or why not. */
export type PublicResourceState<Value> = { status: 'loading' } | { status: 'success'; value: Value } | { status: 'error'; error: ApiError };

export interface PublicResource<Value> {
  /** Starts the request unless it is running or has succeeded; after a failure it asks again (a "Try again", the next page). */
  load: () => Promise<void>;
  /** The state, asked for once by the first page that needs it; pre-rendered pages render the loading state. */
  use: () => PublicResourceState<Value>;
  /** Test seam: forget the cached answer. */
  reset: () => void;
}

const loading = { status: 'loading' } as const;

/**
 * A request of the public site, kept for the visit in a module-level cache rather than TanStack
 * Query, which the public pages' 110 kB JavaScript budget cannot carry (lib/public-settings.ts, the
 * catalogue of features/public/api/products.ts). React adopts pre-rendered pages with the loading
 * state, as a visitor's first paint shows them, then the answer shows.
 */
export function createPublicResource<Value>(request: () => Promise<Value>): PublicResource<Value> {
  let state: PublicResourceState<Value> = loading;
  let inFlight: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const setState = (next: PublicResourceState<Value>) => {
    state = next;
    for (const listener of listeners) listener();
  };
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const load = (): Promise<void> => {
    if (state.status === 'success') return Promise.resolve();
    if (state.status === 'error') setState(loading);
    inFlight ??= request()
      .then(
        (value) => setState({ status: 'success', value }),
        (error: unknown) =>
          setState({ status: 'error', error: error instanceof ApiError ? error : new ApiError({ status: 0, code: 'internal_error', message: String(error) }) }),
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  return {
    load,
    use: () => {
      useEffect(() => {
        void load();
      }, []);
      return useSyncExternalStore(
        subscribe,
        () => state,
        () => loading,
      );
    },
    reset: () => {
      state = loading;
      inFlight = null;
    },
  };
}
