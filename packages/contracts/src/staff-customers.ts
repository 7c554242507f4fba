import { z } from 'zod';
import { accountBalanceSchema } from './accounts.ts';
import { cardSchema } from './cards.ts';
import { postalAddressSchema } from './contact-details.ts';
import { loanSchema } from './loans.ts';
import { identityStatusSchema } from './auth.ts';
import { lineMessages, plainString } from './fields.ts';
import { notificationSchema } from './notifications.ts';
import { decisionReasonField } from './staff.ts';
import { transactionSchema } from './transactions.ts';

/**
 * Customer care in the back office (docs/product.md section 6, "Staff"; issue 12 item 4): finding a
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

/**
 * An open freeze as staff see it: `reason` is the internal reason (staff and the audit log only),
 * `customerMessage` what the customer's banner and notification say.
 */
export const freezeStateSchema = z.object({
  frozen: z.boolean(),
  reason: z.string().nullable(),
  customerMessage: z.string().nullable(),
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
  accounts: z.array(accountBalanceSchema),
  transactions: z.array(transactionSchema),
  sessions: z.array(customerSessionSchema),
  notifications: z.array(notificationSchema),
  freeze: freezeStateSchema,
  /** The postal address (issue 39 item 7): the one last saved, else the identity review's. */
  address: postalAddressSchema.nullable().default(null),
  /** The customer's cards: last four digits only, never the number or a CVV. */
  cards: z.array(cardSchema).default([]),
  loans: z.array(loanSchema).default([]),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** Ending sessions and unfreezing: each needs a reason, kept in the audit log (a freeze takes `freezeRequestSchema`). */
export const customerActionRequestSchema = z.object({ reason: decisionReasonField });
export type CustomerActionRequest = z.input<typeof customerActionRequestSchema>;

/**
 * What a frozen customer is told (decision 053). A bank must not tip off a customer under review,
 * so the staff member's reason never reaches the customer: they pick one of these calm, honest
 * messages (and may edit it) instead. None names an investigation, and none leaves "contact us" as
 * the only way forward: the bank says it will be in touch.
 */
export const freezeCustomerMessages = [
  {
    id: 'paused',
    label: 'Features paused (neutral)',
    text: "Some features of your account are paused for now. We'll be in touch with you about it.",
  },
  {
    id: 'review',
    label: 'Account review',
    text: "We're reviewing your account. Some features are paused while we do this; we'll be in touch when it's done.",
  },
  {
    id: 'records',
    label: 'Updating records',
    text: "Your account is paused while we update our records. We'll let you know as soon as everything works again.",
  },
  {
    id: 'details',
    label: 'Details to confirm',
    text: "We need to confirm a few details with you. Some features are paused until then; we'll contact you to explain what we need.",
  },
  {
    id: 'protection',
    label: 'Protecting the account',
    text: "We've paused payments to keep your account safe. We'll be in touch soon; if something looks wrong to you, tell us in Messages.",
  },
] as const satisfies readonly { id: string; label: string; text: string }[];

/**
 * What a freeze made before customer messages existed says (migration 0030 writes the same text):
 * the neutral one, since the reason then typed was never meant for the customer.
 */
export const neutralFreezeCustomerMessage = freezeCustomerMessages[0].text;

export const freezeCustomerMessageLimits = { minLength: 10, maxLength: 300 } as const;
export const freezeCustomerMessageErrors = {
  missing: 'choose the message the customer will see',
  tooShort: `the customer's message needs at least ${freezeCustomerMessageLimits.minLength} characters`,
  tooLong: `the customer's message can be at most ${freezeCustomerMessageLimits.maxLength} characters`,
} as const;

/** One line of plain text (the banner shows it as a paragraph), 10 to 300 characters. */
export const freezeCustomerMessageField = z
  .string({ error: freezeCustomerMessageErrors.missing })
  .regex(/^[^\r\n]*$/, lineMessages.oneLine)
  .pipe(
    plainString()
      .trim()
      .min(1, freezeCustomerMessageErrors.missing)
      .min(freezeCustomerMessageLimits.minLength, freezeCustomerMessageErrors.tooShort)
      .max(freezeCustomerMessageLimits.maxLength, freezeCustomerMessageErrors.tooLong),
  );

/**
 * `POST /staff/customers/{id}/freeze`: the internal reason (audit log, staff) and the customer's
 * message. docs/product.md's contract body is `{ reason }`: a client that sends only that gets the
 * neutral message, never its reason shown to the customer. The console always sends one.
 */
export const freezeRequestSchema = z.object({ reason: decisionReasonField, customerMessage: freezeCustomerMessageField.default(neutralFreezeCustomerMessage) });
export type FreezeRequest = z.input<typeof freezeRequestSchema>;

export const endSessionsResponseSchema = z.object({ ended: z.number().int().min(0) });
export type EndSessionsResponse = z.infer<typeof endSessionsResponseSchema>;

export const freezeResponseSchema = z.object({ freeze: freezeStateSchema });
export type FreezeResponse = z.infer<typeof freezeResponseSchema>;

/**
 * What `GET /me` tells a frozen customer, for the banner of the signed-in area; null when not
 * frozen. `message` is the customer's message, never the staff member's internal reason.
 */
export const customerFrozenNoticeSchema = z.object({ message: z.string(), since: z.iso.datetime() }).nullable();
export type CustomerFrozenNotice = z.infer<typeof customerFrozenNoticeSchema>;

/** Detail lists are short: the latest of each, for one screen. */
export const customerDetailLimits = { transactions: 20, notifications: 20, sessions: 50 } as const;
