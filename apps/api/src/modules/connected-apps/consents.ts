import { dataScopes, type ConnectedAccount, type ConnectedAppConsent, type DataScope } from '@strongroom/contracts/connected-apps.ts';
import { recordAudit } from '../../platform/audit.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { listConsentsInForce, revokeConsent, type ConsentListRow } from './consents-repository.ts';
import type { ConnectedAppsDependencies } from './dependencies.ts';
import { findRecipient } from './recipients-repository.ts';

/**
 * The customer's side of consents under Settings (docs/connected-apps.md, "Connected apps in
 * Settings"): the list of apps that can see their data, and ending one at once.
 */

/** "Everyday Checking ••1234": the account's name and the last four digits of its number, never the whole number. */
export function maskedAccountOf(account: { id: string; name: string; number: string }): ConnectedAccount {
  return { id: account.id, name: account.name, maskedNumber: `${account.name} ••${account.number.slice(-4)}` };
}

/** The scopes in the contract's order (dataClusters'), whatever order the consent was given in. */
export function inClusterOrder(scopes: readonly DataScope[]): DataScope[] {
  return dataScopes.filter((scope) => scopes.includes(scope));
}

function present(row: ConsentListRow): ConnectedAppConsent {
  return {
    consentId: row.id,
    app: { id: row.recipient_id, name: row.recipient_name, logoUrl: row.recipient_logo_url },
    scopes: inClusterOrder(row.scopes),
    accounts: row.accounts.map(maskedAccountOf),
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

/** The customer's consents in force now (neither revoked nor expired), newest first. */
export async function listCustomerConsents(dependencies: Pick<ConnectedAppsDependencies, 'db' | 'clock'>, customerId: string): Promise<ConnectedAppConsent[]> {
  const rows = await listConsentsInForce(dependencies.db, customerId, dependencies.clock.now());
  return rows.map(present);
}

/**
 * Ends a customer's consent: the consent is marked revoked and the authorization server's grant and
 * tokens are deleted, with the audit entry the security timeline shows, in one transaction. The
 * app's very next request fails in every process, because the resource API reads the consent each
 * time. False when there is nothing of theirs in force to end (another customer's consent, an
 * unknown or malformed id, one already revoked or expired): all look the same to the caller.
 */
export async function revokeCustomerConsent(dependencies: ConnectedAppsDependencies, actor: CustomerActor, consentId: string): Promise<boolean> {
  if (!isUuid(consentId)) return false;
  return dependencies.db.transaction(async (tx) => {
    const revoked = await revokeConsent(tx, { consentId, customerId: actor.customerId, by: 'customer', now: dependencies.clock.now() });
    if (!revoked) return false;
    const recipient = await findRecipient(tx, revoked.recipient_id);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'connected_app.revoked',
        subject: revoked.id,
        outcome: 'success',
        details: { recipientId: revoked.recipient_id, appName: recipient?.name ?? null, scopes: revoked.scopes.join(' ') },
      }),
    );
    return true;
  });
}
