import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { billPayeeListSchema } from '@strongroom/contracts/bill-payees.ts';
import { bankTodaySchema, businessDaysSchema } from '@strongroom/contracts/calendar.ts';
import {
  scheduledPaymentDetailSchema,
  scheduledPaymentListSchema,
  scheduledPaymentResponseSchema,
  upcomingPaymentListSchema,
  type CreateScheduledPaymentRequest,
  type ScheduledPayment,
} from '@strongroom/contracts/scheduled-payments.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { MoneyRequestHeaders } from '../../../components/step-up/use-step-up-request.ts';

/** This feature's query keys: everything under `scheduled-payments` goes stale when a schedule changes. */
export const scheduleKeys = {
  all: ['scheduled-payments'],
  list: ['scheduled-payments', 'list'],
  upcoming: ['scheduled-payments', 'upcoming'],
  detail: (id: string) => ['scheduled-payments', 'detail', id],
  today: ['calendar', 'today'],
  businessDays: (from: string, to: string) => ['calendar', 'business-days', from, to],
} as const;

/** `GET /scheduled-payments` -> `{ items: [schedule] }`. */
export function useSchedules() {
  return useQuery({
    queryKey: scheduleKeys.list,
    queryFn: () => apiRequest('/scheduled-payments', { parse: (data) => scheduledPaymentListSchema.parse(data) }),
  });
}

/** `GET /scheduled-payments/upcoming` -> every occurrence of the next 90 days, soonest first. */
export function useUpcomingPayments() {
  return useQuery({
    queryKey: scheduleKeys.upcoming,
    queryFn: () => apiRequest('/scheduled-payments/upcoming', { parse: (data) => upcomingPaymentListSchema.parse(data) }),
  });
}

/** `GET /scheduled-payments/{id}` -> `{ schedule, occurrences }`; another customer's answers 404. */
export function useScheduleDetail(id: string) {
  return useQuery({
    queryKey: scheduleKeys.detail(id),
    queryFn: () => apiRequest(`/scheduled-payments/${encodeURIComponent(id)}`, { parse: (data) => scheduledPaymentDetailSchema.parse(data) }),
  });
}

/** `GET /bill-payees` -> the customer's payees, by nickname (the key Bill Pay refreshes when one is added or removed). */
export function useBillPayees() {
  return useQuery({
    queryKey: queryKeys.billPayees,
    queryFn: () => apiRequest('/bill-payees', { parse: (data) => billPayeeListSchema.parse(data) }),
  });
}

/** `GET /calendar/today`: the earliest date a payment can be dated and the ACH cut-off. */
export function useBankToday() {
  return useQuery({ queryKey: scheduleKeys.today, queryFn: () => apiRequest('/calendar/today', { parse: (data) => bankTodaySchema.parse(data) }) });
}

/** `GET /calendar/business-days?from&to` (at most 366 days): the preview's calendar. Off until both dates are known. */
export function useBusinessDays(from: string | null, to: string | null) {
  return useQuery({
    queryKey: scheduleKeys.businessDays(from ?? '', to ?? ''),
    queryFn: () => apiRequest('/calendar/business-days', { query: { from: from ?? '', to: to ?? '' }, parse: (data) => businessDaysSchema.parse(data) }),
    enabled: from !== null && to !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** `POST /scheduled-payments` (Idempotency-Key, X-Step-Up on a repeat) -> 201 `{ schedule }`; sent through `useStepUpRequest`. */
export function createScheduledPayment(body: CreateScheduledPaymentRequest, headers: MoneyRequestHeaders): Promise<ScheduledPayment> {
  return apiRequest('/scheduled-payments', { method: 'POST', body, headers, parse: (data) => scheduledPaymentResponseSchema.parse(data).schedule });
}

/** `PUT /scheduled-payments/{id}`, the same body and headers as the create. */
export function updateScheduledPayment(id: string) {
  return (body: CreateScheduledPaymentRequest, headers: MoneyRequestHeaders): Promise<ScheduledPayment> =>
    apiRequest(`/scheduled-payments/${encodeURIComponent(id)}`, {
      method: 'PUT',
      body,
      headers,
      parse: (data) => scheduledPaymentResponseSchema.parse(data).schedule,
    });
}

/** `POST /scheduled-payments/{id}/skip` `{ date }` and `DELETE /scheduled-payments/{id}`: both refresh every list. */
export function useScheduleActions() {
  const queryClient = useQueryClient();
  // A refusal (past the cut-off, not an occurrence) means the screen was out of date: it is refreshed too.
  const onSettled = () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all });
  const skip = useMutation({
    mutationFn: ({ scheduleId, date }: { scheduleId: string; date: string }) =>
      apiRequest(`/scheduled-payments/${encodeURIComponent(scheduleId)}/skip`, { method: 'POST', body: { date }, parse: () => undefined }),
    onSettled,
  });
  const cancel = useMutation({
    mutationFn: (scheduleId: string) => apiRequest(`/scheduled-payments/${encodeURIComponent(scheduleId)}`, { method: 'DELETE', parse: () => undefined }),
    onSettled,
  });
  return { skip, cancel };
}
