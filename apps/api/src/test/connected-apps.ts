import type { FastifyInstance } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';
import { grantTestAccess, openIdClientOf, registerTestRecipient, startAuthorization } from '../modules/connected-apps/test-kit.ts';
import type { TestBrowser } from './client.ts';

/**
 * A request to connect an app (issue 38), waiting on the consent page in `browser`: a new app asks
 * through a pushed authorization request, and the browser is sent to `/connect/{uid}`. Its uid.
 */
export async function waitingConnectRequest(app: FastifyInstance, db: Queryable, browser: TestBrowser): Promise<string> {
  const recipient = await registerTestRecipient(db);
  const oauth = await openIdClientOf(app, recipient);
  const started = await startAuthorization(oauth, { browser, answerStepUp: async () => undefined }, recipient, 'openid fdx:transactions:read');
  return started.uid;
}

/** A consent in force of `customerId`'s to a new app, for one account, with a token (issue 38): its id. */
export async function consentInForce(app: FastifyInstance, db: Database, customerId: string, accountId: string): Promise<string> {
  const recipient = await registerTestRecipient(db, { name: `Sweep app ${customerId.slice(0, 8)}` });
  const access = await grantTestAccess(app, { db }, { customerId, recipient, scopes: ['fdx:transactions:read'], accountIds: [accountId] });
  return access.consentId;
}
