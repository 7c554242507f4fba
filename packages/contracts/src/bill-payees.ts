import { z } from 'zod';
import { billCategorySchema } from './billers.ts';
import { textField } from './fields.ts';
import { validationMessages } from './messages.ts';

/**
 * Bill payees (issue 33 item 2; docs/bill-pay.md): a biller of the directory and the customer's
 * account number there, under a nickname. Paying one is `POST /transfers` `{ kind: "bill",
 * billPayeeId, ... }`; the first payment to a new payee asks for a step-up (D10).
 */

/** The customer's account number at a biller: checked against the biller's pattern by the server (400 with the example). */
export const billerAccountNumberField = textField(40).pipe(z.string().min(1, validationMessages.required));
export const billPayeeNicknameField = textField(40);

/** `POST /bill-payees`. */
export const createBillPayeeRequestSchema = z.object({
  billerId: z.uuid({ error: 'choose a biller' }),
  accountNumber: billerAccountNumberField,
  nickname: billPayeeNicknameField,
});
export type CreateBillPayeeRequest = z.input<typeof createBillPayeeRequestSchema>;

export const billPayeeSchema = z.object({
  id: z.string(),
  billerId: z.string(),
  billerName: z.string(),
  category: billCategorySchema,
  nickname: z.string(),
  /** The last four characters of the customer's account number at the biller ("account ending 4821"); never the whole number. */
  accountEnding: z.string(),
  createdAt: z.iso.datetime(),
});
export type BillPayee = z.infer<typeof billPayeeSchema>;

/** `POST /bill-payees` -> 201. */
export const billPayeeResponseSchema = z.object({ payee: billPayeeSchema });
/** `GET /bill-payees` -> the customer's payees (deleted ones left out), by nickname. */
export const billPayeeListSchema = z.object({ items: z.array(billPayeeSchema) });
export type BillPayeeList = z.infer<typeof billPayeeListSchema>;

/**
 * What an account number that does not match its biller's pattern (billerAccountNumberRegExp) is
 * told, by the browser and the server alike: "An account number at City Water looks like 1234567890".
 */
export function billerAccountNumberMismatchMessage(biller: { name: string; accountNumberExample: string }): string {
  return `An account number at ${biller.name} looks like ${biller.accountNumberExample}`;
}
