import { useMutation } from '@tanstack/react-query';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { sessionResponseSchema, type SessionResponse } from '@strongroom/contracts/auth.ts';
import { passkeyOptionsResponseSchema, type PasskeyOptionsResponse } from '@strongroom/contracts/passkeys.ts';
import { apiRequest } from '../api-client.ts';
import { queryClient } from '../query-client.ts';
import { queryKeys } from '../query-keys.ts';

/**
 * The browser's WebAuthn prompt (@simplewebauthn/browser), loaded on first use only: the sign-in
 * page carries none of it until a passkey button is pressed.
 */
export function loadWebAuthn() {
  return import('@simplewebauthn/browser');
}

/** Asks the device for a passkey answering these options (`navigator.credentials.get`). */
export async function getPasskeyAssertion(options: PasskeyOptionsResponse['options']) {
  const { startAuthentication } = await loadWebAuthn();
  return startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
}

export const parsePasskeyOptions = (data: unknown) => passkeyOptionsResponseSchema.parse(data);

/** Words for what went wrong in the browser's prompt; undefined for an error that is not the prompt's. */
export function passkeyPromptProblem(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = 'code' in error ? String(error.code) : '';
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey for your account.';
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') {
    return 'Passkeys do not work at this address. Open the bank at its usual address and try again.';
  }
  if (error.name === 'NotAllowedError' || code === 'ERROR_CEREMONY_ABORTED') return 'The passkey prompt was closed or timed out. Nothing was changed.';
  if (error.name === 'NotSupportedError' || error.name === 'SecurityError' || code.startsWith('ERROR_')) {
    return 'This browser or device could not use a passkey here.';
  }
  return undefined;
}

/**
 * `POST /auth/passkey/options` (any passkey of this bank: no email asked), the device's prompt,
 * then `POST /auth/passkey` `{ response }` -> `{ user, next }` and the session cookies, as a
 * password sign-in answers.
 */
export async function signInWithPasskey(): Promise<SessionResponse> {
  const { options } = await apiRequest('/auth/passkey/options', { method: 'POST', body: {}, parse: parsePasskeyOptions });
  const response = await getPasskeyAssertion(options);
  return apiRequest('/auth/passkey', { method: 'POST', body: { response }, parse: (data) => sessionResponseSchema.parse(data) });
}

export function usePasskeySignIn() {
  return useMutation({
    mutationFn: signInWithPasskey,
    // A new session: whatever was known about the previous one (a 401) is out of date.
    onSuccess: () => queryClient.resetQueries({ queryKey: queryKeys.me }),
  });
}
