import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addressSavedResponseSchema,
  changeStartedResponseSchema,
  contactDetailsSchema,
  emailChangedResponseSchema,
  phoneChangedResponseSchema,
  type EmailChangeRequest,
  type PhoneChangeRequest,
  type PostalAddressInput,
} from '@strongroom/contracts/contact-details.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';
import { useStepUpRequestThen, type MoneyRequestHeaders, type StepUpAction } from '../../../../components/step-up/use-step-up-request.ts';

/** Settings > Contact details (issue 39 item 7): each change behind a step-up, then a link or a code. */
export const contactDetailsQueryKey = ['me', 'contact'] as const;

/** `GET /api/v1/me/contact`. */
export function useContactDetails() {
  return useQuery({
    queryKey: contactDetailsQueryKey,
    queryFn: ({ signal }) => apiRequest('/me/contact', { signal, parse: (data) => contactDetailsSchema.parse(data) }),
  });
}

function useRefreshContact() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: contactDetailsQueryKey });
    void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  };
}

export const emailChangeStepUp: StepUpAction = {
  subject: 'changing your email address',
  notConfirmed: 'We could not confirm it was you, so your email address was not changed. Please try again in a few minutes.',
};
export const phoneChangeStepUp: StepUpAction = {
  subject: 'changing your phone number',
  notConfirmed: 'We could not confirm it was you, so your phone number was not changed. Please try again in a few minutes.',
};
export const addressChangeStepUp: StepUpAction = {
  subject: 'changing your postal address',
  notConfirmed: 'We could not confirm it was you, so your address was not changed. Please try again in a few minutes.',
};

/** A step-up request that refreshes the contact details once it is done (render `<StepUpDialog {...dialog} />`). */
function useContactChange<Body, Result>(send: (body: Body, headers: MoneyRequestHeaders) => Promise<Result>, action: StepUpAction) {
  const refresh = useRefreshContact();
  return useStepUpRequestThen(send, action, refresh);
}

/** `POST /api/v1/me/email-change` (step-up) -> `{ sentTo, expiresAt }`: the link goes to the new address. */
export function useStartEmailChange() {
  return useContactChange(
    (body: EmailChangeRequest, headers: MoneyRequestHeaders) =>
      apiRequest('/me/email-change', { method: 'POST', body, headers, parse: (data) => changeStartedResponseSchema.parse(data) }),
    emailChangeStepUp,
  );
}

/** `POST /api/v1/me/phone-change` (step-up) -> `{ sentTo, expiresAt }`: the code goes to the new number. */
export function useStartPhoneChange() {
  return useContactChange(
    (body: PhoneChangeRequest, headers: MoneyRequestHeaders) =>
      apiRequest('/me/phone-change', { method: 'POST', body, headers, parse: (data) => changeStartedResponseSchema.parse(data) }),
    phoneChangeStepUp,
  );
}

/** `PUT /api/v1/me/address` (step-up) -> `{ address }`. */
export function useChangeAddress() {
  return useContactChange(
    (body: PostalAddressInput, headers: MoneyRequestHeaders) =>
      apiRequest('/me/address', { method: 'PUT', body, headers, parse: (data) => addressSavedResponseSchema.parse(data) }),
    addressChangeStepUp,
  );
}

/** `POST /api/v1/me/phone-change/confirm` `{ code }` -> `{ phone }`. */
export function useConfirmPhoneChange() {
  const refresh = useRefreshContact();
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest('/me/phone-change/confirm', { method: 'POST', body: { code }, parse: (data) => phoneChangedResponseSchema.parse(data) }),
    onSettled: refresh,
  });
}

/** `POST /api/v1/me/email-change/confirm` `{ token }` -> `{ email }`: the link's page. */
export function useConfirmEmailChange() {
  const refresh = useRefreshContact();
  return useMutation({
    mutationFn: (token: string) =>
      apiRequest('/me/email-change/confirm', { method: 'POST', body: { token }, parse: (data) => emailChangedResponseSchema.parse(data) }),
    onSuccess: refresh,
  });
}
