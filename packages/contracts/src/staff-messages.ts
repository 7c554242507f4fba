import { z } from 'zod';
import { plainString, textField } from './fields.ts';

/**
 * The messages queue of the back office (`messages.reply`). Today every message comes from the
 * public contact form; customers' secure messages join later with `source: "secure_message"`.
 * A reply to an answered message is a follow-up: allowed, and each reply is kept.
 */
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

export const staffMessageSchema = z.object({
  id: z.string(),
  source: z.literal('contact_form'),
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
