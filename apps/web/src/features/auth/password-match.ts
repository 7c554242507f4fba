import { validationMessages } from '@strongroom/contracts/messages.ts';

interface PasswordPair {
  password: string;
  confirmPassword: string;
}

function isTypedPair(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !('password' in value) || !('confirmPassword' in value)) return false;
  return typeof value.password === 'string' && typeof value.confirmPassword === 'string' && value.confirmPassword !== '';
}

export function passwordsMatch(form: PasswordPair): boolean {
  return form.password === form.confirmPassword;
}

/**
 * The contracts check that the confirmation matches the password with a zod refinement, which zod
 * skips while another field is of the wrong type (the terms box not ticked yet). A form adds this
 * one (`schema.refine(passwordsMatch, passwordMatchCheck)`), which runs as soon as both passwords
 * are typed, so the customer hears about a mismatch at once, with the same message.
 */
export const passwordMatchCheck = {
  path: ['confirmPassword'],
  error: validationMessages.passwordsDoNotMatch,
  when: (payload: { value: unknown }) => isTypedPair(payload.value),
};
