import { useMutation, useQuery } from '@tanstack/react-query';
import { bankSettingsResponseSchema, type BankSettingsUpdate } from '@strongroom/contracts/staff-settings.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';

const parse = (data: unknown) => bankSettingsResponseSchema.parse(data);

/** `GET /api/v1/staff/settings`: the contact details `/contact` shows. */
export function useBankSettings() {
  return useQuery({ queryKey: staffQueryKeys.settings, queryFn: () => apiRequest('/staff/settings', { parse }) });
}

/** `PUT /api/v1/staff/settings` (`settings.edit`). */
export function useSaveBankSettings() {
  return useMutation({
    mutationFn: (body: BankSettingsUpdate) => apiRequest('/staff/settings', { method: 'PUT', body, parse }),
    onSuccess: (answer) => queryClient.setQueryData(staffQueryKeys.settings, answer),
  });
}
