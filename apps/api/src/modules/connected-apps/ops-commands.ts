import { parseArgs } from 'node:util';
import { recordAudit } from '../../platform/audit.ts';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';
import { retiredKeyPublishedSeconds, rotateSigningKeys } from './oauth/keys.ts';

/**
 * `npm run ops -- rotate-oauth-keys --reason "..."` (docs/connected-apps.md, "Keys"): new signing
 * keys for the authorization server; the old ones stop signing at once and stay published for
 * `retiredKeyPublishedSeconds`, so what they signed can still be checked. Every running server
 * picks the new keys up within a minute (oauth/server.ts). Prints the new and the retired key ids.
 */
export const rotateOAuthKeysCommand: OpsCommand = {
  name: 'rotate-oauth-keys',
  summary: "Rotate the authorization server's signing keys (the old ones stay published a while); prints the new and retired key ids",
  usage: 'rotate-oauth-keys --reason "..."',
  async run(context, args) {
    const { values, positionals } = parseArgs({ args, options: { reason: { type: 'string' } }, allowPositionals: true, strict: true });
    const reason = values.reason?.trim() ?? '';
    if (positionals.length > 0 || reason.length < 3 || reason.length > 500) throw new OpsUsageError('--reason is required (3 to 500 characters)');
    const db = await context.database();
    const rotation = await rotateSigningKeys(db, context.config.secrets.encryptionKey, (tx, rotated) =>
      recordAudit(tx, {
        actorType: 'system',
        actorId: 'ops-cli',
        action: 'oauth.keys_rotated',
        outcome: 'success',
        details: { reason, created: rotated.created.join(' '), retired: rotated.retired.join(' ') },
      }),
    );
    return ok({ created: rotation.created, retired: rotation.retired, retiredPublishedForSeconds: retiredKeyPublishedSeconds });
  },
};

export const connectedAppsCommands: readonly OpsCommand[] = [rotateOAuthKeysCommand];
