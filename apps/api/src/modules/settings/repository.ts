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
