import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  changePasswordResponseSchema,
  customerSessionsResponseSchema,
  endSessionResponseSchema,
  revokeOtherSessionsResponseSchema,
  totpConfirmResponseSchema,
  totpEnrolmentResponseSchema,
  totpRemovedResponseSchema,
  totpStatusResponseSchema,
  type ChangePasswordRequest,
} from '@strongroom/contracts/security.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';
import { useStepUpRequest, useStepUpRequestThen, type MoneyRequestHeaders, type StepUpAction } from '../../../../components/step-up/use-step-up-request.ts';

/** The Security part of Settings (issue 15): sessions, password, authenticator app. */

/** `GET /api/v1/me/sessions` -> `{ items }`: this browser's first. */
export function useSessions() {
  return useQuery({
    queryKey: queryKeys.sessions,
    queryFn: ({ signal }) => apiRequest('/me/sessions', { signal, parse: (data) => customerSessionsResponseSchema.parse(data) }),
  });
}

/** `DELETE /api/v1/me/sessions/{id}` -> `{ ended, current }`. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/me/sessions/${encodeURIComponent(id)}`, { method: 'DELETE', parse: (data) => endSessionResponseSchema.parse(data) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

/** `POST /api/v1/me/sessions/revoke-others` -> `{ ended }`. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/me/sessions/revoke-others', { method: 'POST', parse: (data) => revokeOtherSessionsResponseSchema.parse(data) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  });
}

export const passwordStepUp: StepUpAction = {
  subject: 'changing your password',
  notConfirmed: 'We could not confirm it was you, so your password was not changed. Please try again in a few minutes.',
};

/** `POST /api/v1/me/password`, through the step-up flow (render `<StepUpDialog {...dialog} />`). */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useStepUpRequestThen(
    (body: ChangePasswordRequest, headers: MoneyRequestHeaders) =>
      apiRequest('/me/password', { method: 'POST', body, headers, parse: (data) => changePasswordResponseSchema.parse(data) }),
    passwordStepUp,
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.sessions }),
  );
}

/** `GET /api/v1/me/totp` -> `{ enrolled, enrolledAt, recoveryCodesLeft }`. */
export function useTotpStatus() {
  return useQuery({
    queryKey: queryKeys.totp,
    queryFn: ({ signal }) => apiRequest('/me/totp', { signal, parse: (data) => totpStatusResponseSchema.parse(data) }),
  });
}

export const totpEnrolStepUp: StepUpAction = {
  subject: 'adding an authenticator app',
  notConfirmed: 'We could not confirm it was you, so the app was not added. Please try again in a few minutes.',
};

export const totpRemoveStepUp: StepUpAction = {
  subject: 'removing your authenticator app',
  notConfirmed: 'We could not confirm it was you, so the app was not removed. Please try again in a few minutes.',
};

/** `POST /api/v1/me/totp` (step-up) -> `{ secret, otpauthUri, qrCode }`. */
export function useStartTotpEnrolment() {
  return useStepUpRequest(
    (_body: Record<string, never>, headers: MoneyRequestHeaders) =>
      apiRequest('/me/totp', { method: 'POST', headers, parse: (data) => totpEnrolmentResponseSchema.parse(data) }),
    totpEnrolStepUp,
  );
}

/** `POST /api/v1/me/totp/confirm` `{ code }` -> `{ recoveryCodes }`, shown once. */
export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiRequest('/me/totp/confirm', { method: 'POST', body: { code }, parse: (data) => totpConfirmResponseSchema.parse(data) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.totp }),
  });
}

/** `DELETE /api/v1/me/totp` (step-up) -> `{ removed }`. */
export function useRemoveTotp() {
  const queryClient = useQueryClient();
  const stepUp = useStepUpRequestThen(
    (_body: Record<string, never>, headers: MoneyRequestHeaders) =>
      apiRequest('/me/totp', { method: 'DELETE', headers, parse: (data) => totpRemovedResponseSchema.parse(data) }),
    totpRemoveStepUp,
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.totp }),
  );
  return { ...stepUp, submit: () => stepUp.submit({}) };
}
