import { useMutation } from '@tanstack/react-query';
import { staffMessageListSchema, staffReplyResponseSchema, type StaffMessageStatus } from '@strongroom/contracts/staff-messages.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { staffQueryKeys } from '../api/staff-query-keys.ts';
import { useStatusQueue } from '../api/status-queue.ts';

/** `GET /staff/messages?status=&cursor=`, page after page. */
export function useStaffMessages(status: StaffMessageStatus) {
  return useStatusQueue(staffQueryKeys.messageList(status), '/staff/messages', status, (data) => staffMessageListSchema.parse(data));
}

/** The navigation's count: messages nobody answered yet. */
export function useOpenMessageCount(): number | undefined {
  return useStaffMessages('open').data?.pages[0]?.total;
}

/** `POST /staff/messages/{id}/reply` `{ text }`: emailed to the visitor as plain text. */
export function useReplyToMessage() {
  return useMutation({
    mutationFn: ({ id, text }: { id: string; text: string }) =>
      apiRequest(`/staff/messages/${encodeURIComponent(id)}/reply`, { method: 'POST', body: { text }, parse: (data) => staffReplyResponseSchema.parse(data) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffQueryKeys.messages }),
  });
}
