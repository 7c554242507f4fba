import { z } from 'zod';
import { accountSchema } from './accounts.ts';
import { identityStatusSchema } from './auth.ts';
import { plainString } from './fields.ts';
import { notificationSchema } from './notifications.ts';
import { decisionReasonField } from './staff.ts';
import { transactionSchema } from './transactions.ts';

/**
 * Customer care in the back office (PRODUCT.md section 6, "Staff"; issue 12 item 4): finding a
 * customer, what staff see of them, ending their sessions, freezing and unfreezing. Nothing here
 * ever holds a password hash, a full ID number or a card number.
 */
export const customerSearchLimits = { minLength: 2, maxLength: 100, maxResults: 50 } as const;

/** `GET /staff/customers?q=`: a name, an email or an account number; without q, the newest customers. */
export const customerSearchQuerySchema = z.object({
  q: plainString()
    .trim()
    .min(customerSearchLimits.minLength, `type at least ${customerSearchLimits.minLength} characters`)
    .max(customerSearchLimits.maxLength, `type at most ${customerSearchLimits.maxLength} characters`)
    .optional(),
});
export type CustomerSearchQuery = z.input<typeof customerSearchQuerySchema>;

export const customerSummarySchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  identityStatus: identityStatusSchema,
  frozen: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;
export const customerSearchResponseSchema = z.object({ items: z.array(customerSummarySchema) });
export type CustomerSearchResponse = z.infer<typeof customerSearchResponseSchema>;

/** A live session of the customer's: `id` is a stable, non-secret handle (never the session's hash). */
export const customerSessionSchema = z.object({
  id: z.string(),
  device: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
});
export type CustomerSession = z.infer<typeof customerSessionSchema>;

export const freezeStateSchema = z.object({
  frozen: z.boolean(),
  reason: z.string().nullable(),
  frozenBy: z.string().nullable(),
  frozenAt: z.iso.datetime().nullable(),
});
export type FreezeState = z.infer<typeof freezeStateSchema>;

/** `GET /staff/customers/{id}`. */
export const customerDetailSchema = z.object({
  profile: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    phoneNumber: z.string().nullable(),
    phoneVerified: z.boolean(),
    createdAt: z.iso.datetime(),
  }),
  identity: z.object({
    status: identityStatusSchema,
    reason: z.string().nullable(),
    /** The ID number's last four digits only, e.g. "•••• 6789"; null before a submission. */
    idNumberMasked: z.string().nullable(),
    country: z.string().nullable(),
    submittedAt: z.iso.datetime().nullable(),
  }),
  accounts: z.array(accountSchema),
  transactions: z.array(transactionSchema),
  sessions: z.array(customerSessionSchema),
  notifications: z.array(notificationSchema),
  freeze: freezeStateSchema,
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** Ending sessions, freezing and unfreezing: each needs a reason, kept in the audit log. */
export const customerActionRequestSchema = z.object({ reason: decisionReasonField });
export type CustomerActionRequest = z.input<typeof customerActionRequestSchema>;

export const endSessionsResponseSchema = z.object({ ended: z.number().int().min(0) });
export type EndSessionsResponse = z.infer<typeof endSessionsResponseSchema>;

export const freezeResponseSchema = z.object({ freeze: freezeStateSchema });
export type FreezeResponse = z.infer<typeof freezeResponseSchema>;

/** What `GET /me` tells a frozen customer, for the banner of the signed-in area; null when not frozen. */
export const customerFrozenNoticeSchema = z.object({ reason: z.string(), since: z.iso.datetime() }).nullable();
export type CustomerFrozenNotice = z.infer<typeof customerFrozenNoticeSchema>;

/** Detail lists are short: the latest of each, for one screen. */
export const customerDetailLimits = { transactions: 20, notifications: 20, sessions: 50 } as const;
