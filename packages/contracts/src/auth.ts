import { z } from 'zod';
import { businessConstants } from './constants.ts';
import { emailField, plainString, textField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { referralCodeField } from './referrals.ts';
import { depositProductSlugSchema } from './products.ts';

/**
 * Sign-up, sign-in, verification and recovery (seed section 2, docs/product.md D4-D6). The web forms and
 * the server validate with these same schemas; the server also refuses common passwords (D5), a
 * check whose 49,000-word list stays on the server.
 *
 * Passwords refuse hidden characters too (fields.ts): a control or text-direction character
 * cannot be typed again on another keyboard, so a password holding one would be lost, and a NUL
 * is where C strings (and some password hashers) stop reading, so two different passwords could
 * compare equal. No browser field produces them; only a script could send one.
 */
export const passwordField = plainString()
  .min(1, validationMessages.required)
  .min(businessConstants.passwordMinLength, validationMessages.passwordTooShort)
  .max(businessConstants.passwordMaxLength, validationMessages.passwordTooLong);

const nameField = textField(100);

function bothPasswordsTyped(payload: { value: unknown }): boolean {
  const value = payload.value as { password?: unknown; confirmPassword?: unknown } | null;
  return typeof value?.password === 'string' && typeof value.confirmPassword === 'string';
}

export const signupRequestSchema = z
  .object({
    firstName: nameField,
    lastName: nameField,
    email: emailField,
    password: passwordField,
    confirmPassword: plainString().min(1, validationMessages.required),
    acceptTerms: z.literal(true, { error: 'please accept the terms and conditions' }),
    /** A friend's code from `/signup?ref=` (issue 15); an unknown one is refused, never ignored. */
    referralCode: referralCodeField.optional(),
    /** The account chosen on a public page (`/signup?product=`); it opens as that product. */
    product: depositProductSlugSchema.optional(),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    error: validationMessages.passwordsDoNotMatch,
    // Check the match even while another field (the terms box) is still wrong.
    when: bothPasswordsTyped,
  });
export type SignupRequest = z.infer<typeof signupRequestSchema>;

export const loginRequestSchema = z.object({
  email: emailField,
  password: plainString().min(1, validationMessages.required).max(businessConstants.passwordMaxLength, validationMessages.passwordTooLong),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

/** Where the customer is in onboarding; the web routes by it (D6). */
export const onboardingStepSchema = z.enum(['verify-email', 'phone', 'identity', 'profile-photo', 'dashboard']);
export type OnboardingStep = z.infer<typeof onboardingStepSchema>;

export const identityStatusSchema = z.enum(['not_submitted', 'submitted', 'approved', 'rejected']);

export const customerSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneVerified: z.boolean(),
  country: z.string().nullable(),
  identityStatus: identityStatusSchema,
  /** The seed's accountVerified: true once identity is approved. */
  accountVerified: z.boolean(),
  profilePhotoUrl: z.string().nullable(),
});
export type Customer = z.infer<typeof customerSchema>;

export const sessionResponseSchema = z.object({ user: customerSchema, next: onboardingStepSchema });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });

export const signupResponseSchema = z.object({ message: z.string(), next: z.literal('verify-email') });

/** The waiting tab's poll: verified once the link was opened in any browser. */
export const signupStatusResponseSchema = z.discriminatedUnion('verified', [
  z.object({ verified: z.literal(false) }),
  z.object({ verified: z.literal(true), user: customerSchema, next: onboardingStepSchema }),
]);

const tokenField = plainString().min(20).max(100);

export const tokenRequestSchema = z.object({ token: tokenField });

export const passwordResetRequestSchema = z.object({ email: emailField });

export const passwordResetCompleteSchema = z
  .object({ token: tokenField, password: passwordField, confirmPassword: plainString().min(1, validationMessages.required) })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    error: validationMessages.passwordsDoNotMatch,
    when: bothPasswordsTyped,
  });

export const authMessages = {
  signupAccepted: 'Check your email: we sent a link to verify your address.',
  wrongCredentials: 'Email or password is incorrect',
  verificationLinkInvalid: 'This verification link is not valid, has expired or was already used. Sign in to get a new one.',
  emailVerified: 'Your email address is verified.',
  resetRequested: 'If an account uses this email, we sent it a link to set a new password. The link works for one hour.',
  resetLinkInvalid: 'This reset link is not valid, has expired or was already used. Ask for a new one.',
  passwordUpdated: 'Your password is updated. Sign in with your new password.',
  resendAccepted: 'We sent a new link. It works for 24 hours.',
  tooManyAttempts: 'Too many attempts. Please wait before trying again.',
} as const;
