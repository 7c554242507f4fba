import { passkeyAuditActions, type Passkey } from '@strongroom/contracts/passkeys.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { tellCustomer, type PasskeyDependencies } from './dependencies.ts';
import { deletePasskey, listPasskeyRows, renamePasskey } from './repository.ts';
import { present } from './webauthn.ts';

/**
 * Passkeys (docs/decisions/030): the public face of the module. Registration (registration.ts),
 * sign-in (sign-in.ts) and answering a step-up (step-up-answers.ts) each live in their own file;
 * the WebAuthn pieces they share are in webauthn.ts. The step-up module learns of passkeys only
 * through `hasPasskey`, given to it when the app is built (app.ts, docs/decisions/063).
 */
export type { PasskeyDependencies } from './dependencies.ts';
export { registrationOptions, registerPasskey } from './registration.ts';
export { signInOptions, signInWithPasskey } from './sign-in.ts';
export { answerStepUpWithPasskey, hasPasskey, stepUpOptions } from './step-up-answers.ts';
export { relyingPartyOf } from './webauthn.ts';

export async function listPasskeys(dependencies: Pick<PasskeyDependencies, 'db'>, customerId: string): Promise<Passkey[]> {
  return (await listPasskeyRows(dependencies.db, customerId)).map(present);
}

export async function renameCustomerPasskey(dependencies: PasskeyDependencies, actor: CustomerActor, id: string, name: string): Promise<Passkey> {
  const row = await renamePasskey(dependencies.db, actor.customerId, id, name.trim());
  if (!row) throw new AppError('not_found', 'This passkey was not found.');
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, { action: passkeyAuditActions.renamed, subject: row.id, outcome: 'success', details: { name: row.name } }),
  );
  return present(row);
}

export async function removeCustomerPasskey(dependencies: PasskeyDependencies, actor: CustomerActor, id: string): Promise<void> {
  const row = await deletePasskey(dependencies.db, actor.customerId, id);
  if (!row) throw new AppError('not_found', 'This passkey was not found.');
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, { action: passkeyAuditActions.removed, subject: row.id, outcome: 'success', details: { name: row.name } }),
  );
  await tellCustomer(
    dependencies,
    actor.customerId,
    `A passkey was removed from your ${dependencies.config.bankName} account`,
    `The passkey named "${row.name}" was removed from your account on ${new Date().toUTCString()}. It no longer signs you in.\n\nIf you did not remove it, change your password and contact us now.`,
  );
}
