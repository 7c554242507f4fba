import { z } from 'zod';
import { plainString } from './fields.ts';

/** `GET /api/v1/staff/audit` and its CSV export (`audit.read`, docs/product.md section 6). */
export const auditLimits = {
  pageSize: 100,
  exportMaxRows: 50_000,
  filterMaxLength: 200,
} as const;

const datePattern = /^\d{4}-\d{2}-\d{2}$/;
const dateFilter = z
  .string()
  .regex(datePattern, 'a date as YYYY-MM-DD')
  .refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), 'not a real date');
const textFilter = plainString().trim().max(auditLimits.filterMaxLength);

/** Empty filters are absent: the console sends its form as it is. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** What the API and the console say about a filter that cannot match anything. */
export const auditMessages = {
  fromAfterTo: 'From must be on or before To',
} as const;

const auditFilterFields = z.object({
  /** A staff id, a staff email or a customer id. */
  actor: optional(textFilter),
  /** An action, or its prefix ending in a dot: `staff.` finds every staff action. */
  action: optional(textFilter),
  subject: optional(textFilter),
  /** Inclusive dates (UTC). */
  from: optional(dateFilter),
  to: optional(dateFilter),
});

/** A From after To would find nothing, silently: the form says why instead (dates as YYYY-MM-DD compare as text). */
const datesInOrder = (filter: { from?: string | undefined; to?: string | undefined }) => !filter.from || !filter.to || filter.from <= filter.to;
const datesInOrderIssue = { path: ['from'], error: auditMessages.fromAfterTo };

export const auditFilterSchema = auditFilterFields.refine(datesInOrder, datesInOrderIssue);
export type AuditFilter = z.infer<typeof auditFilterSchema>;

// Extended before the refinement: zod refuses to extend a refined object.
export const auditQuerySchema = auditFilterFields.extend({ cursor: optional(z.string().regex(/^\d{1,19}$/)) }).refine(datesInOrder, datesInOrderIssue);
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actorType: z.enum(['customer', 'staff', 'system', 'anonymous']),
  actorId: z.string().nullable(),
  action: z.string(),
  subject: z.string().nullable(),
  /** The actor in words: a staff member's email or a customer's name (absent from older servers, null when neither). */
  actorName: z.string().nullable().optional(),
  /** The subject in words when it is a customer or a staff member. */
  subjectName: z.string().nullable().optional(),
  outcome: z.enum(['success', 'failure', 'denied']),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({ items: z.array(auditEntrySchema), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;
