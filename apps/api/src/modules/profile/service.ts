import { defaultPreferences, type Preferences } from '@strongroom/contracts/profile.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { findPreferences, savePreferences } from './repository.ts';

/** The customer's More Options switches (D12), the defaults where they never saved any. */
export async function preferencesOf(db: Database, customerId: string): Promise<Preferences> {
  return (await findPreferences(db, customerId)) ?? defaultPreferences;
}

/** Saves the switches whole, audited with what they now are. */
export async function savePreferencesOf(db: Database, actor: CustomerActor, preferences: Preferences): Promise<Preferences> {
  await savePreferences(db, actor.customerId, preferences);
  await recordAudit(db, auditEntryOf(actor, { action: 'profile.preferences_saved', outcome: 'success', details: { ...preferences } }));
  return preferences;
}
