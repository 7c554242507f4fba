import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { sweepConnectedAppStores } from './sweeps.ts';

describeEachDatabase('connected apps: the recurring sweep of what expired (issue 38)', (database) => {
  it('deletes oauth_store rows expired over an hour and DPoP proof marks past their time, and nothing else', async () => {
    const db = database();
    const store = async (id: string, expiresAt: string | null) =>
      db.query(`INSERT INTO oauth_store (model, id, payload, expires_at) VALUES ('AccessToken', $1, '{}', ${expiresAt ?? 'NULL'})`, [id]);
    await store('long-gone', "now() - interval '2 hours'");
    await store('just-expired', "now() - interval '5 minutes'");
    await store('live', "now() + interval '5 minutes'");
    await store('no-expiry', null);
    const proof = async (expiresAt: string) => {
      const hash = randomBytes(32);
      await db.query(`INSERT INTO dpop_proofs_seen (jti_hash, expires_at) VALUES ($1, ${expiresAt})`, [hash]);
      return hash.toString('hex');
    };
    await proof("now() - interval '1 second'");
    const fresh = await proof("now() + interval '10 minutes'");

    expect(await sweepConnectedAppStores(db)).toEqual({ oauthRows: 1, dpopProofs: 1 });
    const left = await db.query<{ id: string }>("SELECT id FROM oauth_store WHERE model = 'AccessToken' ORDER BY id");
    expect(left.map((row) => row.id)).toEqual(['just-expired', 'live', 'no-expiry']);
    const proofs = await db.query<{ hash: string }>("SELECT encode(jti_hash, 'hex') AS hash FROM dpop_proofs_seen");
    expect(proofs.map((row) => row.hash)).toEqual([fresh]);
    expect(await sweepConnectedAppStores(db)).toEqual({ oauthRows: 0, dpopProofs: 0 });
  });
});
