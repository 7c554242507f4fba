import { z } from 'zod';
import { emailField, plainString, singleLineTextField } from './fields.ts';
import { decisionReasonField } from './staff.ts';

/**
 * Connected apps (issue 38; docs/connected-apps.md; PRODUCT.md section 7, "Connected apps"): apps
 * registered by staff as data recipients ask, through OAuth 2.0 (FAPI 2.0: pushed authorization
 * requests, PKCE, DPoP-bound tokens) at `/oauth/`, to read a customer's data through the FDX-shaped
 * resource API at `/fdx/v6/`. The customer chooses the accounts, the data clusters and how long;
 * "Connected apps" under Settings lists each consent and revokes it at once.
 */

/** The FDX data clusters a customer may share, each an OAuth scope (FDX's own scope names). */
export const dataClusters = [
  {
    scope: 'fdx:accountdetailed:read',
    cluster: 'ACCOUNT_DETAILED',
    label: 'Account details and balances',
    description: 'Account names, types, the last four digits of their numbers, and their current and available balances.',
  },
  {
    scope: 'fdx:transactions:read',
    cluster: 'TRANSACTIONS',
    label: 'Transactions',
    description: 'Money in and out of the chosen accounts: dates, amounts, descriptions and status.',
  },
  {
    scope: 'fdx:statements:read',
    cluster: 'STATEMENTS',
    label: 'Statements',
    description: 'The monthly statements of the chosen accounts, as PDFs.',
  },
  {
    scope: 'fdx:customercontact:read',
    cluster: 'CUSTOMER_CONTACT',
    label: 'Contact details',
    description: 'Your name, email address, phone number and postal address.',
  },
] as const;

export const dataScopes = ['fdx:accountdetailed:read', 'fdx:transactions:read', 'fdx:statements:read', 'fdx:customercontact:read'] as const;
export const dataScopeSchema = z.enum(dataScopes);
export type DataScope = z.infer<typeof dataScopeSchema>;

/** A consent lasts at most this long; the customer may shorten it. */
export const consentMaxDays = 365;

/** The customer's accounts as the consent page and Settings show them: never the full number. */
export const connectedAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** "Checking ••1234". */
  maskedNumber: z.string(),
});
export type ConnectedAccount = z.infer<typeof connectedAccountSchema>;

export const connectedAppSchema = z.object({
  id: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
});

// ---------------------------------------------------------------------------------------------
// The customer's consent page (`/connect/:uid` in the web app), behind the bank's own sign-in.

/** `GET /connect/requests/{uid}`: who asks for what; 404 when the request is unknown, finished or expired. */
export const connectRequestSchema = z.object({
  uid: z.string(),
  app: connectedAppSchema.extend({ contactEmail: z.string() }),
  /** The clusters the app asks for (a subset of what staff allowed it), in dataClusters' order. */
  scopes: z.array(dataScopeSchema),
  /** The customer's open accounts, to choose from. */
  accounts: z.array(connectedAccountSchema),
  maxDays: z.number().int(),
});
export type ConnectRequest = z.infer<typeof connectRequestSchema>;

/**
 * `POST /connect/requests/{uid}/approve` (`Idempotency-Key`; a step-up every time: 403
 * step_up_required, then again with `X-Step-Up`) -> 200 `{ redirectTo }`: the browser goes on to
 * the authorization server, which sends it back to the app with a code.
 */
export const approveConnectRequestSchema = z.object({
  accountIds: z.array(plainString().uuid('choose an account')).min(1, 'choose at least one account').max(50),
  /** At least one of the requested scopes; the customer may leave some out. */
  scopes: z.array(dataScopeSchema).min(1, 'choose at least one kind of data'),
  days: z.number().int().min(1, 'at least 1 day').max(consentMaxDays, `at most ${consentMaxDays} days`),
});
export type ApproveConnectRequest = z.input<typeof approveConnectRequestSchema>;

/** `POST /connect/requests/{uid}/refuse` -> 200 `{ redirectTo }` (the app gets access_denied). */
export const connectRedirectSchema = z.object({ redirectTo: z.string() });
export type ConnectRedirect = z.infer<typeof connectRedirectSchema>;

// ---------------------------------------------------------------------------------------------
// Settings, "Connected apps".

/** `GET /me/connected-apps` -> `{ items }`: the consents in force (not revoked, not expired), newest first. */
export const connectedAppConsentSchema = z.object({
  consentId: z.string(),
  app: connectedAppSchema,
  scopes: z.array(dataScopeSchema),
  accounts: z.array(connectedAccountSchema),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type ConnectedAppConsent = z.infer<typeof connectedAppConsentSchema>;
export const connectedAppListSchema = z.object({ items: z.array(connectedAppConsentSchema) });
export type ConnectedAppList = z.infer<typeof connectedAppListSchema>;
// `DELETE /me/connected-apps/{consentId}` -> 204; 404 for a consent not the customer's or already ended.

// ---------------------------------------------------------------------------------------------
// The back office: data recipients (permission `connected_apps.manage`).

/** A public key of the app's (JWK), for private_key_jwt client authentication; private members are refused. */
export const publicJwkSchema = z
  .object({
    kty: z.enum(['EC', 'RSA', 'OKP']),
    kid: plainString().max(200).optional(),
    use: z.literal('sig').optional(),
    alg: z.enum(['ES256', 'PS256', 'EdDSA']).optional(),
    crv: z.enum(['P-256', 'Ed25519']).optional(),
    x: plainString().max(200).optional(),
    y: plainString().max(200).optional(),
    n: plainString().max(1200).optional(),
    e: plainString().max(20).optional(),
  })
  .strict();
export const recipientJwksSchema = z.object({ keys: z.array(publicJwkSchema).min(1, 'add at least one public key').max(5) }).strict();

/** Where the app may be sent back: https, or http on loopback (a sandbox or a developer's machine). */
export const redirectUriField = plainString()
  .max(500)
  .regex(
    /^(?:https:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?|http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?)(?:\/[^\s#]*)?$/,
    'enter an https address (http only on localhost), without a #fragment',
  );

const recipientFields = {
  name: singleLineTextField(100),
  logoUrl: redirectUriField.nullable().optional(),
  contactEmail: emailField,
  redirectUris: z.array(redirectUriField).min(1, 'add at least one redirect address').max(10),
  allowedScopes: z.array(dataScopeSchema).min(1, 'allow at least one kind of data'),
  jwks: recipientJwksSchema,
  rateLimitPerMinute: z.number().int().min(1).max(100_000).optional(),
};

/** `POST /staff/data-recipients` -> 201 `{ recipient }` (the client id is made by the bank). */
export const createDataRecipientSchema = z.object({ ...recipientFields, reason: decisionReasonField });
export type CreateDataRecipient = z.input<typeof createDataRecipientSchema>;

/** `PUT /staff/data-recipients/{id}` -> 200 `{ recipient }`: every field again, with a reason. */
export const updateDataRecipientSchema = createDataRecipientSchema;

/** `POST /staff/data-recipients/{id}/disable|enable` `{ reason }`: disabling ends every consent and token of the app at once. */
export const recipientStatusChangeSchema = z.object({ reason: decisionReasonField });

export const dataRecipientSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  contactEmail: z.string(),
  redirectUris: z.array(z.string()),
  allowedScopes: z.array(dataScopeSchema),
  jwks: recipientJwksSchema,
  rateLimitPerMinute: z.number().int(),
  enabled: z.boolean(),
  /** Consents in force now. */
  activeConsents: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type DataRecipient = z.infer<typeof dataRecipientSchema>;
export const dataRecipientListSchema = z.object({ items: z.array(dataRecipientSchema) });
export type DataRecipientList = z.infer<typeof dataRecipientListSchema>;
/** The answer of `GET|PUT /staff/data-recipients/{id}`, `POST /staff/data-recipients` and `.../disable|enable`. */
export const dataRecipientResponseSchema = z.object({ recipient: dataRecipientSchema });
