import { useCallback, useState } from 'react';
import type { ContactMessageRequest, ContactMessageResponse } from '@strongroom/contracts/contact.ts';
import { apiRequest, ApiError } from '../../../lib/api-client.ts';

/**
 * `POST /api/v1/contact` `{ name, email, phone, subject, message }` -> 201 `{ message }`.
 *
 * The zod schemas (and zod itself, about 23 KB gzip) are loaded only when the visitor starts using
 * the form, so the contact page stays inside the public pages' JavaScript budget.
 */
export function loadContactSchemas() {
  return import('@strongroom/contracts/contact.ts');
}

export async function sendContactMessage(input: ContactMessageRequest): Promise<ContactMessageResponse> {
  const { contactMessageResponseSchema } = await loadContactSchemas();
  return apiRequest('/contact', {
    method: 'POST',
    body: input,
    parse: (data) => contactMessageResponseSchema.parse(data),
  });
}

export type SendContactState = { status: 'idle' } | { status: 'sending' } | { status: 'sent'; message: string } | { status: 'failed'; error: ApiError };

/** The form's request state; the public site has no TanStack Query, so this is a plain state machine. */
export function useSendContactMessage() {
  const [state, setState] = useState<SendContactState>({ status: 'idle' });

  const send = useCallback(async (input: ContactMessageRequest): Promise<boolean> => {
    setState({ status: 'sending' });
    try {
      const answer = await sendContactMessage(input);
      setState({ status: 'sent', message: answer.message });
      return true;
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError({ status: 0, code: 'internal_error', message: String(error) });
      setState({ status: 'failed', error: apiError });
      return false;
    }
  }, []);

  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, send, reset };
}
