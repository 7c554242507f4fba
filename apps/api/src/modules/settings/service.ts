import type { z } from 'zod';
import type { PublicSettings } from '@strongroom/contracts/settings.ts';
import type { BankSettingsResponse, bankSettingsUpdateSchema } from '@strongroom/contracts/staff-settings.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { demoSignIn } from '../onboarding/service.ts';
import { readBankSettings, readStoredBankSettings, updateBankSettings, type StoredBankSettings } from './repository.ts';

function answerOf(row: StoredBankSettings): BankSettingsResponse {
  return { address: row.address, phone: row.phone, supportEmail: row.support_email, homeCounters: row.home_counters, updatedAt: row.updated_at.toISOString() };
}

/** What any visitor reads of the bank: its name, mode and contact details, read from the row on every request. */
export async function publicSettings(config: Pick<Config, 'bankName' | 'mode'>, db: Queryable): Promise<PublicSettings> {
  const settings = await readBankSettings(db);
  return {
    bankName: config.bankName,
    mode: config.mode,
    address: settings.address,
    phone: settings.phone,
    supportEmail: settings.support_email,
    homeCounters: settings.home_counters,
    ...(config.mode === 'sandbox' ? { demoSignIn } : {}),
  };
}

/** The bank's settings as staff see and edit them. */
export async function staffBankSettings(db: Queryable): Promise<BankSettingsResponse> {
  return answerOf(await readStoredBankSettings(db));
}

/** Saves the staff member's change; the change and its audit row commit together: no change without its record, nor the reverse. */
export async function changeBankSettings(db: Database, actor: StaffActor, change: z.output<typeof bankSettingsUpdateSchema>): Promise<BankSettingsResponse> {
  const { address, phone, supportEmail, homeCounters, reason } = change;
  await db.transaction(async (tx) => {
    const before = await updateBankSettings(tx, { address, phone, support_email: supportEmail, home_counters: homeCounters });
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'settings.update',
        subject: 'bank_settings',
        outcome: 'success',
        details: {
          addressBefore: before.address,
          addressAfter: address,
          phoneBefore: before.phone,
          phoneAfter: phone,
          supportEmailBefore: before.support_email,
          supportEmailAfter: supportEmail,
          // The audit's details are flat values: the figures go in as their JSON.
          homeCountersBefore: JSON.stringify(before.home_counters),
          homeCountersAfter: JSON.stringify(homeCounters ?? before.home_counters),
          reason: reason ?? null,
        },
      }),
    );
  });
  return staffBankSettings(db);
}
