import type { Queryable } from '../../db/database.ts';

export interface BankSettingsRow {
  address: string;
  phone: string;
  support_email: string;
}

export async function readBankSettings(db: Queryable): Promise<BankSettingsRow> {
  const [row] = await db.query<BankSettingsRow>('SELECT address, phone, support_email FROM bank_settings WHERE singleton');
  if (!row) throw new Error('bank_settings has no row; migration 0001 seeds it');
  return row;
}

export interface StoredBankSettings extends BankSettingsRow {
  updated_at: Date;
}

export async function readStoredBankSettings(db: Queryable): Promise<StoredBankSettings> {
  const [row] = await db.query<StoredBankSettings>('SELECT address, phone, support_email, updated_at FROM bank_settings WHERE singleton');
  if (!row) throw new Error('bank_settings has no row; migration 0001 seeds it');
  return row;
}

/**
 * Replaces the three fields; answers the row as it was before, for the audit log's before/after.
 * Run it inside the caller's transaction (with the audit row), which the row lock lasts for.
 */
export async function updateBankSettings(tx: Queryable, settings: BankSettingsRow): Promise<StoredBankSettings> {
  const [row] = await tx.query<StoredBankSettings>('SELECT address, phone, support_email, updated_at FROM bank_settings WHERE singleton FOR UPDATE');
  if (!row) throw new Error('bank_settings has no row; migration 0001 seeds it');
  await tx.query('UPDATE bank_settings SET address = $1, phone = $2, support_email = $3, updated_at = now() WHERE singleton', [
    settings.address,
    settings.phone,
    settings.support_email,
  ]);
  return row;
}
