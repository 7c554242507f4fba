import { z } from 'zod';
import {
  createDataRecipientSchema,
  dataClusters,
  dataScopes,
  recipientJwksSchema,
  redirectUriField,
  type CreateDataRecipient,
  type DataRecipient,
  type DataScope,
} from '@strongroom/contracts/connected-apps.ts';

/** Each data cluster's words, as the consent page and Settings say them. */
export const scopeLabels = Object.fromEntries(dataClusters.map((cluster) => [cluster.scope, cluster.label])) as Record<DataScope, string>;

/** A JWK's members that only a private key has: pasting one would hand the bank the app's secret. */
const privateMembers = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

const { shape } = createDataRecipientSchema;

/** The redirect addresses typed one a line: blank lines and spaces around them do not count. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The JWKS the textarea holds, or why it is not one (said for the whole field). */
export function parseJwks(text: string): { jwks: z.output<typeof recipientJwksSchema> } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: text.trim() === '' ? "paste the app's public keys (a JWKS)" : 'this is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { keys?: unknown }).keys))
    return { problem: 'this is not a JWKS: a JSON object with a "keys" list' };
  const keys = (parsed as { keys: unknown[] }).keys;
  const secret = keys.findIndex((key) => typeof key === 'object' && key !== null && privateMembers.some((member) => member in key));
  if (secret >= 0) return { problem: `key ${secret + 1} is a private key: paste only the public keys (without "d")` };
  const checked = recipientJwksSchema.safeParse(parsed);
  if (checked.success) return { jwks: checked.data };
  const issue = checked.error.issues[0];
  const [, index, member] = issue?.path ?? [];
  if (typeof index !== 'number') return { problem: issue?.message ?? 'this is not a JWKS' };
  return { problem: `key ${index + 1}${member === undefined ? '' : `, "${String(member)}"`}: ${issue?.message ?? 'not a public key'}` };
}

/**
 * The dialog's form, every field typed as text (the scopes as checkboxes): the contract's rules and
 * messages, with the addresses, the keys and the rate read from their text, so most refusals are
 * said before anything is sent.
 */
export const recipientFormSchema = z
  .object({
    name: shape.name,
    logoUrl: z.string(),
    contactEmail: shape.contactEmail,
    redirectUris: z.string(),
    allowedScopes: z.array(z.string()).min(1, 'allow at least one kind of data'),
    jwks: z.string(),
    rateLimitPerMinute: z.string(),
    reason: shape.reason,
  })
  .superRefine((form, context) => {
    const problem = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    if (form.logoUrl.trim() !== '' && !redirectUriField.safeParse(form.logoUrl.trim()).success)
      problem('logoUrl', 'enter an https address (http only on localhost)');
    const uris = linesOf(form.redirectUris);
    if (uris.length === 0) problem('redirectUris', 'add at least one redirect address');
    else if (uris.length > 10) problem('redirectUris', 'at most 10 redirect addresses');
    const bad = uris.findIndex((uri) => !redirectUriField.safeParse(uri).success);
    const repeated = uris.findIndex((uri, index) => uris.indexOf(uri) !== index);
    if (bad >= 0) problem('redirectUris', `line ${bad + 1}: enter an https address (http only on localhost), without a #fragment`);
    else if (repeated >= 0) problem('redirectUris', `line ${repeated + 1} repeats line ${uris.indexOf(uris[repeated] ?? '') + 1}`);
    const keys = parseJwks(form.jwks);
    if ('problem' in keys) problem('jwks', keys.problem);
    const rate = form.rateLimitPerMinute.trim();
    if (!/^\d{1,6}$/.test(rate) || Number(rate) < 1 || Number(rate) > 100_000) problem('rateLimitPerMinute', 'a whole number from 1 to 100000');
  });

export type RecipientForm = z.input<typeof recipientFormSchema>;

/** The form filled with an app to edit, or empty for a new one. */
export function formOf(recipient: DataRecipient | null): RecipientForm {
  return {
    name: recipient?.name ?? '',
    logoUrl: recipient?.logoUrl ?? '',
    contactEmail: recipient?.contactEmail ?? '',
    redirectUris: recipient?.redirectUris.join('\n') ?? '',
    allowedScopes: recipient ? [...recipient.allowedScopes] : [],
    jwks: recipient ? JSON.stringify(recipient.jwks, null, 2) : '',
    rateLimitPerMinute: String(recipient?.rateLimitPerMinute ?? 120),
    reason: '',
  };
}

/** The request body from the checked form. */
export function requestOf(form: RecipientForm): CreateDataRecipient {
  const keys = parseJwks(form.jwks);
  if ('problem' in keys) throw new Error(keys.problem);
  return {
    name: form.name.trim(),
    logoUrl: form.logoUrl.trim() === '' ? null : form.logoUrl.trim(),
    contactEmail: form.contactEmail.trim(),
    redirectUris: linesOf(form.redirectUris),
    allowedScopes: dataScopes.filter((scope) => form.allowedScopes.includes(scope)),
    jwks: keys.jwks,
    rateLimitPerMinute: Number(form.rateLimitPerMinute.trim()),
    reason: form.reason.trim(),
  };
}

/** The form's field a server message is about: `redirectUris.1` and `jwks.keys.0.kid` belong to their textareas. */
export function formFieldOf(serverField: string): keyof RecipientForm | undefined {
  const [first] = serverField.split('.');
  return first !== undefined && first in formOf(null) ? (first as keyof RecipientForm) : undefined;
}

/** The clusters an edit takes away from the app: consents in force that hold them lose them at once. */
export function scopesTakenAway(recipient: DataRecipient | null, allowed: readonly string[]): DataScope[] {
  return recipient ? recipient.allowedScopes.filter((scope) => !allowed.includes(scope)) : [];
}
