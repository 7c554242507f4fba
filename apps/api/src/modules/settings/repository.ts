import type { HomeCounter } from '@strongroom/contracts/staff-settings.ts';
import type { Queryable } from '../../db/database.ts';

export interface BankSettingsRow {
  address: string;
  phone: string;
  support_email: string;
  home_counters: HomeCounter[];
}

export async function readBankSettings(db: Queryable): Promise<BankSettingsRow> {
  const [row] = await db.query<BankSettingsRow>('SELECT address, phone, support_email, home_counters FROM bank_settings WHERE singleton');
  if (!row) throw new Error('bank_settings has no row; migration 0001 seeds it');
  return row;
}

export interface StoredBankSettings extends BankSettingsRow {
  updated_at: Date;
}

export async function readStoredBankSettings(db: Queryable): Promise<StoredBankSettings> {
  const [row] = await db.query<StoredBankSettings>('SELECT address, phone, support_email, home_counters, updated_at FROM bank_settings WHERE singleton');
  if (!row) throw new Error('bank_settings has no row; migration 0001 seeds it');
  return row;
}

/**
 * Replaces the contact fields and the home page's figures (kept when undefined); answers the row as it was before, for
 * the audit log's before/after.
 * Run it inside the caller's transaction (with the audit row), which the row lock lasts for.
 */
export async function updateBankSettings(
  tx: Queryable,
  settings: Omit<BankSettingsRow, 'home_counters'> & { home_counters: HomeCounter[] | undefined },
): Promise<StoredBankSettings> {
  const [row] = await tx.query<StoredBankSettings>(
    'SELECT address, phone, support_email, home_counters, updated_at FROM bank_settings WHERE singleton FOR UPDATE',
  );
  if (!row) throw new Error('bank_settings has no row; migration 0001 seeds it');
  await tx.query(
    'UPDATE bank_settings SET address = $1, phone = $2, support_email = $3, home_counters = COALESCE($4::jsonb, home_counters), updated_at = now() WHERE singleton',
    [settings.address, settings.phone, settings.support_email, settings.home_counters === undefined ? null : JSON.stringify(settings.home_counters)],
  );
  return row;
}
