import { randomUUID } from 'node:crypto';
import { dataScopes } from '@strongroom/contracts/connected-apps.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { findRecipientByClientId, upsertRecipient } from '../connected-apps/service.ts';
import { loadBudgetAppKey } from './app-key.ts';

/** Pennywise as the bank knows it: a data recipient like any other, registered by the sandbox itself. */
export const budgetApp = {
  clientId: 'sandbox-budget-app',
  name: 'Pennywise (sandbox)',
  contactEmail: 'hello@pennywise.example',
  /** Every path of the app is under this one, in the bank's own origin. */
  basePath: '/sandbox/budget-app',
} as const;

/** Where the bank sends the customer back: the app's callback, at the bank's public address. */
export function budgetAppRedirectUri(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}${budgetApp.basePath}/callback`;
}

/**
 * Registers (or refreshes) the fictional app as a data recipient at a sandbox's start, never in
 * production: its key (made on the first start), its callback at the bank's current public
 * address, every data cluster. A second start changes nothing but what moved (a new PUBLIC_URL);
 * an app staff disabled stays disabled.
 */
export async function seedSandboxBudgetApp(db: Database, config: Config): Promise<void> {
  if (config.mode !== 'sandbox') return;
  const key = await loadBudgetAppKey(config.dataDirectory);
  const existing = await findRecipientByClientId(db, budgetApp.clientId);
  await upsertRecipient(db, {
    id: existing?.id ?? randomUUID(),
    clientId: budgetApp.clientId,
    name: budgetApp.name,
    logoUrl: null,
    contactEmail: budgetApp.contactEmail,
    redirectUris: [budgetAppRedirectUri(config)],
    allowedScopes: [...dataScopes],
    jwks: { keys: [key.publicJwk] },
    rateLimitPerMinute: 120,
    createdBy: null,
  });
}
