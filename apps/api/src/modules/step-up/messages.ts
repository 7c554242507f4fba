import { stepUpCodeLength, stepUpCodeValidMinutes, type StepUpMethod } from '@strongroom/contracts/step-up.ts';

/** The step-up's words: the SMS it sends and the message of the 403 the client shows. */

export function maskPhone(phoneE164: string): string {
  return `•••• ${phoneE164.slice(-4)}`;
}

/** The SMS: the code, what it authorises (never an account or card number) and a warning. */
export function smsText(bankName: string, code: string, purpose: string): string {
  return `${bankName}: your code is ${code}. It authorises ${purpose} and nothing else. It expires in ${stepUpCodeValidMinutes} minutes. We will never call you to ask for it.`;
}

export function challengeMessage(methods: readonly StepUpMethod[], phone: string): string {
  if (methods.includes('totp')) {
    return `For your security, enter the ${stepUpCodeLength}-digit code your authenticator app shows, or we can text a code to ${maskPhone(phone)}.`;
  }
  if (methods.includes('passkey')) return `For your security, confirm with your passkey, or we can text a code to ${maskPhone(phone)}.`;
  return `For your security, enter the ${stepUpCodeLength}-digit code we sent to ${maskPhone(phone)}.`;
}

/** The answer to a wrong code, with the tries left. */
export function wrongCodeMessage(replayed: boolean, attemptsLeft: number): string {
  const start = replayed ? 'That code was already used: wait for the next one your app shows.' : 'That code is not right.';
  return attemptsLeft > 0
    ? `${start} ${attemptsLeft} ${attemptsLeft === 1 ? 'try' : 'tries'} left.`
    : `${start.replace(/\.$/, '')}, and no tries are left. Ask for a new one.`;
}

export const notFoundMessage = 'This code request was not found. Start the payment again.';
