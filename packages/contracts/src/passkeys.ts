import { z } from 'zod';
import { textField } from './fields.ts';

/**
 * Passkeys (WebAuthn, issue 15, docs/decisions/030): a way to sign in and to answer a step-up.
 *
 * Customer (signed in), under /me/passkeys:
 * - `GET /me/passkeys` -> `{ items: [Passkey] }`, oldest first;
 * - `POST /me/passkeys/registration/options` -> `{ options }` for `navigator.credentials.create`;
 *   it needs a step-up (403 `step_up_required`, then repeated with `X-Step-Up`): a new passkey is a
 *   new way into the account;
 * - `POST /me/passkeys` `{ name, response }` -> 201 `{ passkey }`; the registration's challenge works once;
 * - `PATCH /me/passkeys/{id}` `{ name }` -> `{ passkey }`; `DELETE /me/passkeys/{id}` -> 204.
 * Sign-in (no session): `POST /auth/passkey/options` -> `{ options }` (discoverable credentials: no
 * email needed), then `POST /auth/passkey` `{ response }` -> `{ user, next }` with the session
 * cookies, exactly as `POST /auth/login`.
 * Step-up: `POST /step-up/{challengeId}/passkey/options` -> `{ options }`, then
 * `POST /step-up/{challengeId}/passkey` `{ response }` -> `{ verified: true }`; the original
 * request is then repeated with `X-Step-Up` as after a code.
 */

/** How long a passkey challenge lives (the browser's prompt times out a little earlier). */
export const passkeyChallengeValidMinutes = 5;
export const passkeyNameMaxLength = 60;

export const passkeyNameField = textField(passkeyNameMaxLength, 'Give this passkey a name');

const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** What `@simplewebauthn/browser`'s startRegistration answers (RegistrationResponseJSON). */
export const passkeyRegistrationResponseSchema = z.object({
  id: base64url(1400).min(16),
  rawId: base64url(1400).min(16),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4_000),
    attestationObject: base64url(20_000),
    authenticatorData: base64url(10_000).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(4_000).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** What `@simplewebauthn/browser`'s startAuthentication answers (AuthenticationResponseJSON). */
export const passkeyAssertionResponseSchema = z.object({
  id: base64url(1400).min(16),
  rawId: base64url(1400).min(16),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url(4_000),
    authenticatorData: base64url(10_000),
    signature: base64url(2_000),
    userHandle: base64url(200).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/**
 * The options the browser hands to WebAuthn, as the server library makes them (JSON, base64url
 * buffers). Loose: the web passes them on to `@simplewebauthn/browser` untouched.
 */
export const passkeyOptionsResponseSchema = z.object({ options: z.looseObject({ challenge: z.string() }) });
export type PasskeyOptionsResponse = z.infer<typeof passkeyOptionsResponseSchema>;

export const passkeyRegisterRequestSchema = z.object({ name: passkeyNameField, response: passkeyRegistrationResponseSchema });
export type PasskeyRegisterRequest = z.input<typeof passkeyRegisterRequestSchema>;

export const passkeyRenameRequestSchema = z.object({ name: passkeyNameField });
export type PasskeyRenameRequest = z.input<typeof passkeyRenameRequestSchema>;

export const passkeyAssertionRequestSchema = z.object({ response: passkeyAssertionResponseSchema });
export type PasskeyAssertionRequest = z.input<typeof passkeyAssertionRequestSchema>;

export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
  /** Synced between the customer's devices (a multi-device passkey), as the authenticator says. */
  backedUp: z.boolean(),
  /** Where the browser said it lives: 'internal' (this device), 'hybrid' (a phone), 'usb'... */
  transports: z.array(z.string()),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ items: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;
export const passkeyResponseSchema = z.object({ passkey: passkeySchema });

/** The audit actions passkeys write (for the security timeline). */
export const passkeyAuditActions = {
  added: 'customer.passkey_added',
  renamed: 'customer.passkey_renamed',
  removed: 'customer.passkey_removed',
} as const;
