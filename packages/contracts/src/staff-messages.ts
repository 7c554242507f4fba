import { z } from 'zod';
import { plainString, textField } from './fields.ts';

/**
 * The messages queue of the back office (`messages.reply`): messages from the public contact form
 * (`source: "contact_form"`, answered by email) and signed-in customers' secure messages
 * (`source: "secure_message"`, answered in the thread, the customer notified). A reply to an
 * answered message is a follow-up: allowed, and each reply is kept. `conversation` holds both
 * sides in order (a secure thread's follow-ups from the customer included).
 */
export const staffMessageSources = ['contact_form', 'secure_message'] as const;
export const staffMessageSourceSchema = z.enum(staffMessageSources);
export type StaffMessageSource = z.infer<typeof staffMessageSourceSchema>;
export const staffMessageStatuses = ['open', 'answered'] as const;
export const staffMessageStatusSchema = z.enum(staffMessageStatuses);
export type StaffMessageStatus = z.infer<typeof staffMessageStatusSchema>;

export const staffMessageListQuerySchema = z.object({
  status: staffMessageStatusSchema.default('open'),
  cursor: plainString().max(200).optional(),
});

export const staffMessageReplySchema = z.object({
  id: z.string(),
  text: z.string(),
  staffId: z.string(),
  staffEmail: z.string(),
  createdAt: z.string(),
});

export const staffConversationEntrySchema = z.object({
  id: z.string(),
  author: z.enum(['customer', 'staff']),
  text: z.string(),
  /** The staff member who wrote a staff entry; null for the customer's. */
  staffEmail: z.string().nullable(),
  createdAt: z.string(),
});
export type StaffConversationEntry = z.infer<typeof staffConversationEntrySchema>;

export const staffMessageSchema = z.object({
  id: z.string(),
  source: staffMessageSourceSchema,
  /** The customer of a secure message (for the customer page); null for the contact form. */
  customerId: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  subject: z.string(),
  text: z.string(),
  status: staffMessageStatusSchema,
  /** When it arrived: the queue's "waiting since". */
  receivedAt: z.string(),
  answeredAt: z.string().nullable(),
  replies: z.array(staffMessageReplySchema),
  conversation: z.array(staffConversationEntrySchema),
});
export type StaffMessage = z.infer<typeof staffMessageSchema>;

export const staffMessageListSchema = z.object({
  items: z.array(staffMessageSchema),
  nextCursor: z.string().nullable(),
  total: z.number().int(),
});
export type StaffMessageList = z.infer<typeof staffMessageListSchema>;

export const replyTextMaxLength = 5_000;
export const staffReplyRequestSchema = z.object({ text: textField(replyTextMaxLength) });
export type StaffReplyRequest = z.input<typeof staffReplyRequestSchema>;

export const staffReplyResponseSchema = z.object({ message: staffMessageSchema });
