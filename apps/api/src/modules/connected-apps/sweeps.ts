import type { Queryable } from '../../db/database.ts';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';

/**
 * What the authorization server and the resource API keep only for a while (docs/connected-apps.md):
 * oauth_store rows past their expiry (find never answers them; an hour's grace for the provider's
 * own checks of a just-expired row) and DPoP proof marks too old to be replayed anyway (their iat
 * would be refused). Swept by one recurring job, off the request path, like the rate-limit counters.
 */
export const connectedAppSweepJobKind = 'connected-apps.sweep';
export const connectedAppSweepIntervalMs = 10 * 60 * 1_000;

export async function sweepConnectedAppStores(db: Queryable): Promise<{ oauthRows: number; dpopProofs: number }> {
  const oauthRows = await db.query(`DELETE FROM oauth_store WHERE expires_at < now() - interval '1 hour' RETURNING 1 AS gone`);
  const dpopProofs = await db.query('DELETE FROM dpop_proofs_seen WHERE expires_at < now() RETURNING 1 AS gone');
  return { oauthRows: oauthRows.length, dpopProofs: dpopProofs.length };
}

export function registerConnectedAppJobs(jobs: JobRunner, db: Queryable): void {
  jobs.register(connectedAppSweepJobKind, async () => {
    await sweepConnectedAppStores(db);
  });
  jobs.every(connectedAppSweepJobKind, connectedAppSweepIntervalMs);
}
