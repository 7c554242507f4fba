import { z } from 'zod';
import { bankModeSchema } from './platform.ts';
import { homeCountersSchema } from './staff-settings.ts';

/** `GET /api/v1/settings/public`: what the public pages show about the bank (D7: fetched at once, cached). */
export const publicSettingsSchema = z.object({
  bankName: z.string(),
  mode: bankModeSchema,
  address: z.string(),
  phone: z.string(),
  supportEmail: z.string(),
  /** The figures the home page shows, as the bank set them in its settings; empty, no section. */
  homeCounters: homeCountersSchema,
  /** Sandbox only: the demo customer's sign-in, shown on the login page. Absent in production. */
  demoSignIn: z.object({ email: z.string(), password: z.string() }).optional(),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
