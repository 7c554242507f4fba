import { describe, expect, it } from 'vitest';
import type { DataRecipient } from '@strongroom/contracts/connected-apps.ts';
import { formFieldOf, formOf, parseJwks, recipientFormSchema, requestOf, scopesTakenAway, type RecipientForm } from './recipient-form-schema.ts';

const key = { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uE2Gd3bM', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' };
const valid: RecipientForm = {
  ...formOf(null),
  name: 'Pennywise',
  contactEmail: 'dev@pennywise.example',
  redirectUris: ' https://pennywise.example/cb \n\nhttp://localhost:3000/cb\n',
  allowedScopes: ['fdx:transactions:read', 'fdx:accountdetailed:read'],
  jwks: JSON.stringify({ keys: [key] }),
  reason: 'Partner agreement signed',
};

function messagesOf(form: RecipientForm) {
  const parsed = recipientFormSchema.safeParse(form);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe("the connected app form's checks", () => {
  it('reads the public keys in the browser and says what is wrong with them', () => {
    expect(parseJwks('{"keys": [')).toEqual({ problem: 'this is not valid JSON' });
    expect(parseJwks('')).toEqual({ problem: "paste the app's public keys (a JWKS)" });
    expect(parseJwks(JSON.stringify(key))).toEqual({ problem: 'this is not a JWKS: a JSON object with a "keys" list' });
    expect(parseJwks(JSON.stringify({ keys: [key, { ...key, d: 'secret' }] }))).toEqual({
      problem: 'key 2 is a private key: paste only the public keys (without "d")',
    });
    expect(parseJwks(JSON.stringify({ keys: [] }))).toEqual({ problem: 'add at least one public key' });
    const wrongType = parseJwks(JSON.stringify({ keys: [{ ...key, kty: 'oct' }] }));
    expect('problem' in wrongType && wrongType.problem).toMatch(/^key 1, "kty": /);
    expect(parseJwks(JSON.stringify({ keys: [key] }))).toEqual({ jwks: { keys: [key] } });
  });

  it('checks each redirect address, one a line, and the rate', () => {
    expect(messagesOf(valid)).toEqual({});
    expect(messagesOf({ ...valid, redirectUris: 'https://a.example/cb\nhttp://a.example/cb' })).toEqual({
      redirectUris: 'line 2: enter an https address (http only on localhost), without a #fragment',
    });
    expect(messagesOf({ ...valid, redirectUris: 'https://a.example/cb\nhttps://b.example\nhttps://a.example/cb' })).toEqual({
      redirectUris: 'line 3 repeats line 1',
    });
    expect(messagesOf({ ...valid, redirectUris: '\n  \n' })).toEqual({ redirectUris: 'add at least one redirect address' });
    expect(messagesOf({ ...valid, rateLimitPerMinute: '1.5', logoUrl: 'ftp://x', allowedScopes: [] })).toEqual({
      rateLimitPerMinute: 'a whole number from 1 to 100000',
      logoUrl: 'enter an https address (http only on localhost)',
      allowedScopes: 'allow at least one kind of data',
    });
  });

  it("makes the request: addresses trimmed, scopes in the contract's order, an empty logo null; server fields go back to their textareas", () => {
    expect(requestOf(valid)).toEqual({
      name: 'Pennywise',
      logoUrl: null,
      contactEmail: 'dev@pennywise.example',
      redirectUris: ['https://pennywise.example/cb', 'http://localhost:3000/cb'],
      allowedScopes: ['fdx:accountdetailed:read', 'fdx:transactions:read'],
      jwks: { keys: [key] },
      rateLimitPerMinute: 120,
      reason: 'Partner agreement signed',
    });
    expect(formFieldOf('redirectUris.1')).toBe('redirectUris');
    expect(formFieldOf('jwks.keys.0.kid')).toBe('jwks');
    expect(formFieldOf('reason')).toBe('reason');
    expect(formFieldOf('_')).toBeUndefined();
  });

  it('knows which clusters an edit takes away', () => {
    const recipient = { allowedScopes: ['fdx:accountdetailed:read', 'fdx:statements:read'] } as DataRecipient;
    expect(scopesTakenAway(recipient, ['fdx:accountdetailed:read', 'fdx:transactions:read'])).toEqual(['fdx:statements:read']);
    expect(scopesTakenAway(null, [])).toEqual([]);
  });
});
