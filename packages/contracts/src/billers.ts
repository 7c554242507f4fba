import { z } from 'zod';
import { textField } from './fields.ts';
import { decisionReasonField } from './staff.ts';

/**
 * Bill pay's directory of billers (issue 33 item 1; docs/product.md section 7): the seed's twelve
 * tiles, by these slugs, each with the billers a customer can pay from it.
 */
export const billCategories = ['electricity', 'water', 'gas', 'food', 'airfare', 'cable', 'internet', 'hotel', 'train', 'bus', 'movie', 'other'] as const;
export const billCategorySchema = z.enum(billCategories, { error: `the category is one of: ${billCategories.join(', ')}` });
export type BillCategory = z.infer<typeof billCategorySchema>;

/** How the bank pays a biller: an ACH credit to its bank account, or (sandbox only) the rail simulator. */
export const billerPaymentMethodSchema = z.enum(['ach', 'simulator']);
export type BillerPaymentMethod = z.infer<typeof billerPaymentMethodSchema>;

/** `GET /billers?category=` item: what a customer sees. */
export const billerSchema = z.object({
  id: z.string(),
  name: z.string(),
  category: billCategorySchema,
  /** A regular expression (whole value) the customer's account number at this biller must match. */
  accountNumberPattern: z.string(),
  /** An account number that matches, shown in the message when one does not. */
  accountNumberExample: z.string(),
});
export type Biller = z.infer<typeof billerSchema>;

export const billerListSchema = z.object({ items: z.array(billerSchema) });
export type BillerList = z.infer<typeof billerListSchema>;

export const billerListQuerySchema = z.object({ category: billCategorySchema.optional() });

/** What staff see of a biller: how the bank pays it, and whether customers can still choose it. */
export const staffBillerSchema = billerSchema.extend({
  paymentMethod: billerPaymentMethodSchema,
  /** ACH: the biller's bank routing number (9 digits) and account there; null for the simulator. */
  routingNumber: z.string().nullable(),
  accountNumber: z.string().nullable(),
  active: z.boolean(),
});
export type StaffBiller = z.infer<typeof staffBillerSchema>;

export const staffBillerListSchema = z.object({ items: z.array(staffBillerSchema) });
export const staffBillerResponseSchema = z.object({ biller: staffBillerSchema });

/** `POST /staff/billers` and `PUT /staff/billers/{id}`: the whole biller, and the reason (3 to 500 characters) kept in the audit log. */
export const billerRequestSchema = z.object({
  name: textField(80).pipe(z.string().min(2, 'the name needs at least 2 characters')),
  category: billCategorySchema,
  accountNumberPattern: textField(200).pipe(z.string().min(1, 'enter the pattern of an account number at this biller')),
  accountNumberExample: textField(40).pipe(z.string().min(1, 'enter an example account number')),
  paymentMethod: billerPaymentMethodSchema,
  routingNumber: z
    .string()
    .regex(/^\d{9}$/, 'a routing number is 9 digits')
    .nullable(),
  accountNumber: z
    .string()
    .regex(/^\d{4,17}$/, 'an account number is 4 to 17 digits')
    .nullable(),
  active: z.boolean().default(true),
  reason: decisionReasonField,
});
export type BillerRequest = z.input<typeof billerRequestSchema>;

/**
 * A biller's account-number pattern as the regular expression both sides match with: the whole
 * value (`^(?:pattern)$`); undefined when the pattern alone does not compile as a JavaScript RegExp.
 */
export function billerAccountNumberRegExp(pattern: string): RegExp | undefined {
  try {
    new RegExp(pattern);
    return new RegExp(`^(?:${pattern})$`);
  } catch {
    return undefined;
  }
}
