import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { passkeyListSchema, passkeyResponseSchema, type Passkey, type PasskeyList, type PasskeyOptionsResponse } from '@strongroom/contracts/passkeys.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';
import { passkeyErrorMessage } from '../../../../lib/api/passkey-step-up.ts';
import { loadWebAuthn, parsePasskeyOptions } from '../../../../lib/api/passkey-sign-in.ts';
import { useStepUpRequest, type MoneyRequestHeaders, type StepUpAction } from '../../../../components/step-up/use-step-up-request.ts';

/**
 * Passkeys (packages/contracts/src/passkeys.ts): the customer's list, adding one (options behind a
 * step-up, then the browser's WebAuthn prompt, then the answer), renaming, removing; answering a
 * step-up with one (lib/api/passkey-step-up.ts). Signing in with one is lib/api/passkey-sign-in.ts.
 */

export async function browserSupportsPasskeys(): Promise<boolean> {
  const { browserSupportsWebAuthn } = await loadWebAuthn();
  return browserSupportsWebAuthn();
}

async function createCredential(options: PasskeyOptionsResponse['options']) {
  const { startRegistration } = await loadWebAuthn();
  return startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
}

const parseOptions = parsePasskeyOptions;

export function getPasskeys(): Promise<PasskeyList> {
  return apiRequest('/me/passkeys', { parse: (data) => passkeyListSchema.parse(data) });
}

export function usePasskeys() {
  return useQuery({ queryKey: queryKeys.passkeys, queryFn: getPasskeys });
}

/** `POST /me/passkeys/registration/options`: 403 `step_up_required` first, then with `X-Step-Up` the options. */
function registrationOptions(_body: Record<string, never>, headers: MoneyRequestHeaders): Promise<PasskeyOptionsResponse> {
  return apiRequest('/me/passkeys/registration/options', { method: 'POST', body: {}, headers, parse: parseOptions });
}

export const addPasskeyStepUp: StepUpAction = {
  subject: 'adding a passkey',
  notConfirmed: 'We could not confirm it is you, so no passkey was added. Please try again in a few minutes.',
};

export type AddPasskeyOutcome = { status: 'done'; passkey: Passkey } | { status: 'cancelled' } | { status: 'failed'; message: string };

/**
 * Adds a passkey: the step-up (render `<StepUpDialog {...dialog} />`), the browser's prompt, then
 * `POST /me/passkeys` `{ name, response }`. Every failure comes back as words for the screen.
 */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  const stepUp = useStepUpRequest(registrationOptions, addPasskeyStepUp);
  const register = useMutation({
    mutationFn: async ({ name, options }: { name: string; options: PasskeyOptionsResponse['options'] }) => {
      const response = await createCredential(options);
      return apiRequest('/me/passkeys', { method: 'POST', body: { name, response }, parse: (data) => passkeyResponseSchema.parse(data) });
    },
  });

  async function add(name: string): Promise<AddPasskeyOutcome> {
    const outcome = await stepUp.submit({});
    if (outcome.status === 'cancelled') return { status: 'cancelled' };
    if (outcome.status === 'failed') return { status: 'failed', message: passkeyErrorMessage(outcome.error) };
    try {
      const { passkey } = await register.mutateAsync({ name, options: outcome.result.options });
      await queryClient.invalidateQueries({ queryKey: queryKeys.passkeys });
      return { status: 'done', passkey };
    } catch (error) {
      return { status: 'failed', message: passkeyErrorMessage(error) };
    }
  }

  return { add, isPending: stepUp.isPending || register.isPending, dialog: stepUp.dialog };
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiRequest(`/me/passkeys/${encodeURIComponent(id)}`, { method: 'PATCH', body: { name }, parse: (data) => passkeyResponseSchema.parse(data) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.passkeys }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(`/me/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE', parse: () => undefined }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.passkeys }),
  });
}

export { passkeyErrorMessage };
