import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { sandboxStaffSignInSchema, staffMeResponseSchema, type StaffLoginRequest, type StaffMeResponse } from '@strongroom/contracts/staff.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from './staff-query-keys.ts';

/** `GET /api/v1/staff/me`: the signed-in staff member and their permissions, or 401. */
export function useStaffMe() {
  return useQuery({
    queryKey: staffQueryKeys.me,
    queryFn: () => apiRequest('/staff/me', { parse: (data) => staffMeResponseSchema.parse(data) }),
    staleTime: 0,
    retry: false,
  });
}

export function useStaffLogin() {
  return useMutation({
    mutationFn: (body: StaffLoginRequest) => apiRequest('/staff/auth/login', { method: 'POST', body, parse: (data) => staffMeResponseSchema.parse(data) }),
    onSuccess: (answer: StaffMeResponse) => {
      queryClient.removeQueries({ queryKey: staffQueryKeys.all });
      queryClient.setQueryData(staffQueryKeys.me, answer);
    },
  });
}

export function useStaffLogout() {
  return useMutation({
    mutationFn: () => apiRequest('/staff/auth/logout', { method: 'POST', parse: () => undefined }),
    onSettled: () => queryClient.removeQueries({ queryKey: staffQueryKeys.all }),
  });
}

/** Sandbox only: the bootstrap admin's sign-in with the authenticator's current code. */
export function fetchSandboxStaffSignIn() {
  return apiRequest('/dev/staff-sign-in', { parse: (data) => sandboxStaffSignInSchema.parse(data) });
}

export const noContent = z.undefined();
