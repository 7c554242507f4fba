import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import {
  secureMessageListSchema,
  secureMessageThreadResponseSchema,
  type NewSecureMessageRequest,
  type SecureMessageThread,
} from '@strongroom/contracts/secure-messages.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** `GET /messages?cursor=`: the customer's threads, last activity first, page after page. */
export function useSecureMessages() {
  return useInfiniteQuery({
    queryKey: queryKeys.secureMessageList,
    queryFn: ({ pageParam }) => apiRequest('/messages', { query: { cursor: pageParam }, parse: (data) => secureMessageListSchema.parse(data) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** `GET /messages/{id}`: one thread with both sides; refetched when support answers (live event). */
export function useSecureThread(id: string) {
  return useQuery({
    queryKey: queryKeys.secureMessageThread(id),
    queryFn: () =>
      apiRequest(`/messages/${encodeURIComponent(id)}`, { parse: (data) => secureMessageThreadResponseSchema.parse(data) }).then((answer) => answer.thread),
  });
}

function remember(thread: SecureMessageThread) {
  queryClient.setQueryData(queryKeys.secureMessageThread(thread.id), thread);
  void queryClient.invalidateQueries({ queryKey: queryKeys.secureMessageList });
}

/** `POST /messages` `{ subject, text }` -> 201 `{ thread }`. */
export function useSendSecureMessage() {
  return useMutation({
    mutationFn: (message: NewSecureMessageRequest) =>
      apiRequest('/messages', { method: 'POST', body: message, parse: (data) => secureMessageThreadResponseSchema.parse(data) }).then(
        (answer) => answer.thread,
      ),
    onSuccess: remember,
  });
}

/** `POST /messages/{id}/replies` `{ text }` -> 201 `{ thread }`. */
export function useSendFollowUp(id: string) {
  return useMutation({
    mutationFn: (text: string) =>
      apiRequest(`/messages/${encodeURIComponent(id)}/replies`, {
        method: 'POST',
        body: { text },
        parse: (data) => secureMessageThreadResponseSchema.parse(data),
      }).then((answer) => answer.thread),
    onSuccess: remember,
  });
}
