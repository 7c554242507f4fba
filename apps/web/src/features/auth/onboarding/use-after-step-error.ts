import { useCallback } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * A 409 `conflict` means this step is not the customer's next one (done in another tab, say). After
 * its message has been read, asking `/me` again lets the guard take the customer to the right screen.
 */
export function useAfterStepError() {
  return useCallback((error: unknown) => {
    if (error instanceof ApiError && error.code === 'conflict') void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  }, []);
}
