import { z } from 'zod';

/**
 * The seed's More Options switches (Settings), saved per customer (D12): `GET|PUT /me/preferences`.
 * Each field is a strict boolean: "true", 1 or null is refused with 400 validation_failed, so a
 * switch is never saved from a value nobody chose.
 */
export const preferencesSchema = z.strictObject({
  newsletter: z.boolean({ error: 'choose on or off' }),
  textMessages: z.boolean({ error: 'choose on or off' }),
  phoneCalls: z.boolean({ error: 'choose on or off' }),
});
export type Preferences = z.infer<typeof preferencesSchema>;

/**
 * What a customer who never saved a switch has: everything off. Marketing by newsletter, text or
 * phone is something a customer opts in to, never out of (docs/decisions/032).
 */
export const defaultPreferences: Preferences = { newsletter: false, textMessages: false, phoneCalls: false };

/** The switches as Settings labels them, in the seed's order. */
export const preferenceLabels: Readonly<Record<keyof Preferences, string>> = {
  newsletter: 'Newsletter',
  textMessages: 'Text Message',
  phoneCalls: 'Phone Call',
};
