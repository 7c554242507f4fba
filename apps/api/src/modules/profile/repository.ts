import type { Preferences } from '@strongroom/contracts/profile.ts';
import type { Queryable } from '../../db/database.ts';

interface PreferencesRow {
  newsletter: boolean;
  text_messages: boolean;
  phone_calls: boolean;
}

export async function findPreferences(db: Queryable, customerId: string): Promise<Preferences | undefined> {
  const [row] = await db.query<PreferencesRow>('SELECT newsletter, text_messages, phone_calls FROM customer_preferences WHERE customer_id = $1', [customerId]);
  return row ? { newsletter: row.newsletter, textMessages: row.text_messages, phoneCalls: row.phone_calls } : undefined;
}

export async function savePreferences(db: Queryable, customerId: string, preferences: Preferences): Promise<void> {
  await db.query(
    `INSERT INTO customer_preferences (customer_id, newsletter, text_messages, phone_calls) VALUES ($1, $2, $3, $4)
     ON CONFLICT (customer_id) DO UPDATE
       SET newsletter = excluded.newsletter, text_messages = excluded.text_messages, phone_calls = excluded.phone_calls, updated_at = now()`,
    [customerId, preferences.newsletter, preferences.textMessages, preferences.phoneCalls],
  );
}
