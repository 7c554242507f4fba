import { z } from 'zod';
import { plainString, textField } from './fields.ts';

/**
 * Secure messages (docs/product.md section 6, D12 "Live chat"): a signed-in customer's threads with
 * support. `GET /messages` lists the threads (last activity first), `POST /messages`
 * `{ subject, text }` opens one (201), `GET /messages/{id}` shows one with every message of both
 * sides, `POST /messages/{id}/replies` `{ text }` adds the customer's follow-up (201). Staff answer
 * in the back office's messages queue (`source: "secure_message"`); each answer is a notification.
 * Text is stored as typed and shown as text: HTML in a message is never markup.
 */
export const secureMessageLimits = {
  subjectMaxLength: 150,
  textMaxLength: 5_000,
} as const;

export const secureMessageMessages = {
  subjectRequired: 'Please write a subject',
  textRequired: 'Please write your message',
} as const;

export const newSecureMessageRequestSchema = z.object({
  subject: textField(secureMessageLimits.subjectMaxLength, secureMessageMessages.subjectRequired),
  text: textField(secureMessageLimits.textMaxLength, secureMessageMessages.textRequired),
});
export type NewSecureMessageRequest = z.input<typeof newSecureMessageRequestSchema>;

export const secureMessageFollowUpRequestSchema = z.object({
  text: textField(secureMessageLimits.textMaxLength, secureMessageMessages.textRequired),
});
export type SecureMessageFollowUpRequest = z.input<typeof secureMessageFollowUpRequestSchema>;

/** `waiting`: the customer wrote last and support has not answered yet. */
export const secureMessageStatusSchema = z.enum(['waiting', 'answered']);
export type SecureMessageStatus = z.infer<typeof secureMessageStatusSchema>;

/** One message in a thread: the customer's own (`customer`) or support's answer (`bank`). */
export const secureMessageEntrySchema = z.object({
  id: z.string(),
  author: z.enum(['customer', 'bank']),
  text: z.string(),
  createdAt: z.iso.datetime(),
});
export type SecureMessageEntry = z.infer<typeof secureMessageEntrySchema>;

export const secureMessageThreadSummarySchema = z.object({
  id: z.string(),
  subject: z.string(),
  status: secureMessageStatusSchema,
  createdAt: z.iso.datetime(),
  lastActivityAt: z.iso.datetime(),
  /** The start of the newest message, for the list. */
  preview: z.string(),
  /** How many messages the thread holds, both sides. */
  messageCount: z.number().int().min(1),
  /** The security event a "This wasn't me" report attached; null for an ordinary message. */
  reportedEventId: z.string().nullable(),
});
export type SecureMessageThreadSummary = z.infer<typeof secureMessageThreadSummarySchema>;

export const secureMessageThreadSchema = secureMessageThreadSummarySchema.extend({
  entries: z.array(secureMessageEntrySchema),
});
export type SecureMessageThread = z.infer<typeof secureMessageThreadSchema>;

export const secureMessagePageSize = 20;
export const secureMessageListQuerySchema = z.object({ cursor: plainString().max(200).optional() });
export const secureMessageListSchema = z.object({
  items: z.array(secureMessageThreadSummarySchema),
  nextCursor: z.string().nullable(),
});
export type SecureMessageList = z.infer<typeof secureMessageListSchema>;

export const secureMessageThreadResponseSchema = z.object({ thread: secureMessageThreadSchema });
export type SecureMessageThreadResponse = z.infer<typeof secureMessageThreadResponseSchema>;
