import { useMutation } from '@tanstack/react-query';
import { apiRequest, ApiError } from '../api-client.ts';
import { queryClient } from '../query-client.ts';

/** `POST /api/v1/auth/logout`: ends the session on the server and clears its cookies. */
export async function logout(): Promise<void> {
  try {
    await apiRequest('/auth/logout', { method: 'POST', parse: () => undefined });
  } catch (error) {
    // Already signed out (the session expired): the goal of the request is met.
    if (error instanceof ApiError && error.code === 'unauthenticated') return;
    throw error;
  }
}

export function useLogout() {
  return useMutation({
    mutationFn: logout,
    // Nothing of the customer's may stay in memory once they have signed out.
    onSuccess: () => queryClient.clear(),
  });
}
