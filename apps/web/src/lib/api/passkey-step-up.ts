import { stepUpVerifyResponseSchema } from '@strongroom/contracts/step-up.ts';
import { apiRequest } from '../api-client.ts';
import { getPasskeyAssertion, parsePasskeyOptions, passkeyPromptProblem } from './passkey-sign-in.ts';

/** Answers a step-up challenge with one of the customer's passkeys; the caller then repeats its request with `X-Step-Up`. */
export async function answerStepUpWithPasskey(challengeId: string): Promise<void> {
  const path = `/step-up/${encodeURIComponent(challengeId)}/passkey`;
  const { options } = await apiRequest(`${path}/options`, { method: 'POST', body: {}, parse: parsePasskeyOptions });
  const response = await getPasskeyAssertion(options);
  await apiRequest(path, { method: 'POST', body: { response }, parse: (data) => stepUpVerifyResponseSchema.parse(data) });
}

/** Words for a passkey that failed: the browser prompt's problem, or the error's own message. */
export function passkeyErrorMessage(error: unknown): string {
  return passkeyPromptProblem(error) ?? (error instanceof Error ? error.message : 'Something went wrong. Please try again.');
}
