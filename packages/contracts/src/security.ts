import { z } from 'zod';
import { passwordField } from './auth.ts';
import { businessConstants } from './constants.ts';
import { plainString } from './fields.ts';
import { validationMessages } from './messages.ts';

/**
 * The Security part of Settings (issue 15, docs/product.md section 6 "The rest of the customer area"):
 * active sessions, the password, and the authenticator app with its recovery codes
 * (docs/decisions/029). Passkeys are in passkeys.ts.
 */

/** `GET /me/sessions`: the customer's live sessions, this one first, then the most recently seen. */
export const customerSessionSchema = z.object({
  id: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
  /** The browser and system named from the user agent: 'Chrome on Windows'. */
  device: z.string(),
  /** The address the session started from, when known. */
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type CustomerSession = z.infer<typeof customerSessionSchema>;

export const customerSessionsResponseSchema = z.object({ items: z.array(customerSessionSchema) });
export type CustomerSessionsResponse = z.infer<typeof customerSessionsResponseSchema>;

/** `DELETE /me/sessions/{id}` -> `{ ended: true, current }`; `current` true means this browser is now signed out. */
export const endSessionResponseSchema = z.object({ ended: z.literal(true), current: z.boolean() });
/** `POST /me/sessions/revoke-others` -> how many other sessions ended. */
export const revokeOtherSessionsResponseSchema = z.object({ ended: z.number().int().nonnegative() });

/** `POST /me/password`, behind a step-up (D10). The new password follows sign-up's rules (D5). */
export const changePasswordRequestSchema = z
  .object({
    currentPassword: plainString().min(1, validationMessages.required).max(businessConstants.passwordMaxLength, validationMessages.passwordTooLong),
    password: passwordField,
    confirmPassword: plainString().min(1, validationMessages.required),
  })
  .refine((form) => form.password === form.confirmPassword, {
    path: ['confirmPassword'],
    error: validationMessages.passwordsDoNotMatch,
    when: (payload) => {
      const value = payload.value as { password?: unknown; confirmPassword?: unknown } | null;
      return typeof value?.password === 'string' && typeof value.confirmPassword === 'string';
    },
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const changePasswordResponseSchema = z.object({
  changed: z.literal(true),
  /** How many other sessions the change ended. */
  otherSessionsEnded: z.number().int().nonnegative(),
});

export const securityMessages = {
  wrongCurrentPassword: 'This is not your current password',
  samePassword: 'choose a password different from your current one',
} as const;

/** `GET /me/totp`: whether the customer has an authenticator app, and how many recovery codes are unused. */
export const totpStatusResponseSchema = z.object({
  enrolled: z.boolean(),
  enrolledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int().nonnegative(),
});
export type TotpStatus = z.infer<typeof totpStatusResponseSchema>;

/**
 * `POST /me/totp` (behind a step-up) starts an enrolment: the secret to type, the otpauth:// URI,
 * and the URI as a QR code (an SVG image as a data: URL, drawn on the server).
 */
export const totpEnrolmentResponseSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrCode: z.string(),
});
export type TotpEnrolment = z.infer<typeof totpEnrolmentResponseSchema>;

export const totpConfirmRequestSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, validationMessages.stepUpCodeInvalid),
});

/** The ten recovery codes, shown this once. */
export const totpConfirmResponseSchema = z.object({ recoveryCodes: z.array(z.string()).length(10) });

export const totpRemovedResponseSchema = z.object({ removed: z.literal(true) });
