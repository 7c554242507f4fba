import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { expect, it } from 'vitest';
import { systemClock } from '../../db/clock.ts';
import type { Config } from '../../config.ts';
import { testConfig } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { runOpsCommand } from '../ops/registry.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { loadSigningKeys } from './oauth/keys.ts';
import { authorizationServerRoutes, createAuthorizationServer } from './oauth/server.ts';

interface PublishedKey {
  kid: string;
  alg: string;
  key_ops?: string[];
  d?: string;
}

describeEachDatabase('rotate-oauth-keys (issue 38)', (database) => {
  /** What a server process that starts now publishes at /oauth/jwks. */
  async function publishedByANewProcess(config: Config): Promise<PublishedKey[]> {
    const server = createAuthorizationServer({ db: database(), config, clock: systemClock });
    const app = Fastify();
    // The bank's schemas are zod's (app.ts sets the same compilers).
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(authorizationServerRoutes({ authorizationServer: server } as ConnectedAppsDependencies));
    const response = await app.inject({ method: 'GET', url: '/oauth/jwks' });
    await app.close();
    expect(response.statusCode).toBe(200);
    return response.json<{ keys: PublishedKey[] }>().keys;
  }

  it('makes new signing keys, retires the old ones (published, verifying only, for a while), audits it with the reason', async () => {
    const config = await testConfig({ ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') });
    const context = { database: async () => database(), config };
    const first = await publishedByANewProcess(config);
    expect(first.map((key) => key.alg).sort()).toEqual(['ES256', 'PS256']);
    expect(first.every((key) => key.d === undefined && key.key_ops === undefined)).toBe(true);

    expect((await runOpsCommand(context, 'rotate-oauth-keys', [])).exitCode).toBe(2);
    expect((await runOpsCommand(context, 'rotate-oauth-keys', ['--reason', ''])).exitCode).toBe(2);

    const result = await runOpsCommand(context, 'rotate-oauth-keys', ['--reason', 'yearly rotation']);
    expect(result.exitCode, result.output).toBe(0);
    const rotation = JSON.parse(result.output) as { created: string[]; retired: string[] };
    expect(rotation.retired).toEqual(first.map((key) => key.kid).sort());
    expect(rotation.created).toHaveLength(2);
    expect(rotation.created.some((kid) => rotation.retired.includes(kid))).toBe(false);

    const after = await publishedByANewProcess(config);
    expect(
      after
        .filter((key) => key.key_ops === undefined)
        .map((key) => key.kid)
        .sort(),
    ).toEqual([...rotation.created].sort());
    expect(after.filter((key) => key.key_ops !== undefined).map((key) => [key.kid, key.key_ops])).toEqual(
      expect.arrayContaining(rotation.retired.map((kid) => [kid, ['verify']])),
    );
    const [audit] = await database().query<{ actor_type: string; details: Record<string, string> }>(
      "SELECT actor_type, details FROM audit_log WHERE action = 'oauth.keys_rotated' ORDER BY id DESC LIMIT 1",
    );
    expect(audit).toEqual({
      actor_type: 'system',
      details: { reason: 'yearly rotation', created: rotation.created.join(' '), retired: rotation.retired.join(' ') },
    });

    // Past the publication window, a retired key is gone from the set.
    await database().query("UPDATE oauth_signing_keys SET retired_at = now() - interval '1 day' WHERE kid = ANY($1::text[])", [rotation.retired]);
    const later = await loadSigningKeys(database(), config.secrets.encryptionKey);
    expect(later.jwks.keys.map((key) => key.kid).sort()).toEqual([...rotation.created].sort());
  });

  it('keeps the private halves sealed: the table holds no private key in clear', async () => {
    const config = await testConfig({ ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64') });
    const keys = await loadSigningKeys(database(), config.secrets.encryptionKey);
    const rows = await database().query<{ sealed_private_jwk: Uint8Array; public_jwk: Record<string, unknown> }>(
      'SELECT sealed_private_jwk, public_jwk FROM oauth_signing_keys',
    );
    for (const key of keys.jwks.keys) {
      const stored = JSON.stringify(rows.map((row) => [Buffer.from(row.sealed_private_jwk).toString('utf8'), row.public_jwk]));
      expect(stored).not.toContain(String(key.d));
    }
    expect(rows.every((row) => !('d' in row.public_jwk))).toBe(true);
  });
});
