import { useMutation, useQuery } from '@tanstack/react-query';
import {
  staffEnrolmentSchema,
  staffListResponseSchema,
  type CreateStaffRequest,
  type StaffPasswordChange,
  type StaffRole,
} from '@strongroom/contracts/staff.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';

/** `GET /api/v1/staff/members` (`staff.manage`). */
export function useStaffMembers() {
  return useQuery({ queryKey: staffQueryKeys.members, queryFn: () => apiRequest('/staff/members', { parse: (data) => staffListResponseSchema.parse(data) }) });
}

const refreshMembers = () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.members });

/** `POST /api/v1/staff/members`: answers the new member's second factor, shown once. */
export function useCreateStaffMember() {
  return useMutation({
    mutationFn: (body: CreateStaffRequest) => apiRequest('/staff/members', { method: 'POST', body, parse: (data) => staffEnrolmentSchema.parse(data) }),
    onSuccess: refreshMembers,
  });
}

export type StaffChangeRequest =
  | { kind: 'disable' | 'enable'; id: string; reason: string }
  | { kind: 'role'; id: string; role: StaffRole; reason: string }
  | { kind: 'reset-second-factor'; id: string; reason: string };

/** `POST /api/v1/staff/members/{id}/disable|enable|role|reset-second-factor`; a reset answers the new second factor. */
export function useChangeStaffMember() {
  return useMutation({
    mutationFn: ({ kind, id, ...body }: StaffChangeRequest) =>
      apiRequest(`/staff/members/${encodeURIComponent(id)}/${kind}`, {
        method: 'POST',
        body,
        parse: (data) => (data === undefined || data === null ? null : staffEnrolmentSchema.parse(data)),
      }),
    onSuccess: refreshMembers,
  });
}

/** `POST /api/v1/staff/me/password`. */
export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (body: StaffPasswordChange) => apiRequest('/staff/me/password', { method: 'POST', body, parse: () => undefined }),
  });
}
