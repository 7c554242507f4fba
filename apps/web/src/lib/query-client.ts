import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';

/** A request that failed for a reason that may pass (network, 5xx) is tried this many more times. */
const maxQueryRetries = 2;

function isRetryable(error: unknown): boolean {
  // A 4xx answer (signed out, not found, invalid) will be the same the next time.
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500);
}

/**
 * The one TanStack Query cache of the signed-in area and the sandbox tools. Only lazy chunks import
 * this module, which keeps TanStack Query out of the public pages.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) => failureCount < maxQueryRetries && isRetryable(error),
      staleTime: 30_000,
    },
    mutations: { retry: false },
  },
});
