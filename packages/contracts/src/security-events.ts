import { z } from 'zod';
import { plainString } from './fields.ts';

/**
 * The security timeline (issue 15, item 2): `GET /me/security-events?cursor=` lists the signed-in
 * customer's own security events from the audit log (sign-ins, failed sign-ins, step-ups,
 * password and second-factor changes, card reveals, new payees...), newest first, a page at a
 * time. `POST /me/security-events/{id}/not-me` is "This wasn't me": it ends every session of the
 * customer (this one too), freezes money movement until staff lift it, opens a secure message to
 * support with the event attached, emails the customer and is audited. Reporting the same event
 * again answers the first report (`alreadyReported: true`) and changes nothing.
 */
export const securityEventKindSchema = z.enum([
  'sign_in',
  'sign_in_failed',
  'sign_out',
  'step_up',
  'password',
  'second_factor',
  'passkey',
  'session',
  'card',
  'payee',
  'account',
  'connected_app',
  'report',
  'other',
]);
export type SecurityEventKind = z.infer<typeof securityEventKindSchema>;

export const securityEventSchema = z.object({
  id: z.string(),
  /** The audit action, for the curious and for support ("auth.login"). */
  action: z.string(),
  kind: securityEventKindSchema,
  /** What happened, in words ("Signed in", "Failed sign-in: wrong password"). */
  title: z.string(),
  outcome: z.enum(['success', 'failure', 'denied']),
  at: z.iso.datetime(),
  /** The browser and system in words ("Chrome on Windows"); null when the event recorded none. */
  device: z.string().nullable(),
  ip: z.string().nullable(),
  /** True once the customer said "This wasn't me" about it. */
  reported: z.boolean(),
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;

export const securityEventPageSize = 25;
export const securityEventListQuerySchema = z.object({ cursor: plainString().max(200).optional() });
export const securityEventListSchema = z.object({
  items: z.array(securityEventSchema),
  nextCursor: z.string().nullable(),
});
export type SecurityEventList = z.infer<typeof securityEventListSchema>;

export const notMeResponseSchema = z.object({
  report: z.object({
    /** The secure message opened with support, at /messages/{threadId}. */
    threadId: z.string(),
    /** Money movement is frozen (by this report, or already before it). */
    frozen: z.literal(true),
    /** Sessions this report ended (0 on a repeat). */
    sessionsEnded: z.number().int().min(0),
    alreadyReported: z.boolean(),
  }),
});
export type NotMeResponse = z.infer<typeof notMeResponseSchema>;
