import { useMutation, useQuery } from '@tanstack/react-query';
import { preferencesSchema, type Preferences } from '@strongroom/contracts/profile.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** `GET /api/v1/me/preferences` -> `{ newsletter, textMessages, phoneCalls }` (defaults when never saved). */
export function getPreferences(): Promise<Preferences> {
  return apiRequest('/me/preferences', { parse: (data) => preferencesSchema.parse(data) });
}

/** `PUT /api/v1/me/preferences` with all three switches -> the saved switches. */
export function savePreferences(preferences: Preferences): Promise<Preferences> {
  return apiRequest('/me/preferences', { method: 'PUT', body: preferences, parse: (data) => preferencesSchema.parse(data) });
}

export function usePreferences() {
  return useQuery({ queryKey: queryKeys.preferences, queryFn: getPreferences });
}

/**
 * Optimistic: the switch moves at once; if the server refuses, it moves back to what was saved
 * before (the caller shows the error). The server's answer is what stays.
 */
export function useSavePreferences() {
  return useMutation({
    mutationFn: savePreferences,
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.preferences });
      const previous = queryClient.getQueryData<Preferences>(queryKeys.preferences);
      queryClient.setQueryData(queryKeys.preferences, next);
      return { previous };
    },
    onError: (_error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.preferences, context.previous);
    },
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.preferences, saved),
  });
}
