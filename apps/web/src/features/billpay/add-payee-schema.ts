import { z } from 'zod';
import { billerAccountNumberField, billerAccountNumberMismatchMessage, billPayeeNicknameField } from '@strongroom/contracts/bill-payees.ts';
import { billerAccountNumberRegExp, type Biller } from '@strongroom/contracts/billers.ts';

/**
 * The add-payee form of one biller: the customer's account number there, checked against the
 * biller's pattern with the server's regular expression and message (the example in it), and a
 * nickname. A pattern the browser cannot compile is left to the server, which answers on the field.
 */
export function addPayeeFormSchema(biller: Biller) {
  const pattern = billerAccountNumberRegExp(biller.accountNumberPattern);
  return z.object({
    accountNumber: billerAccountNumberField.refine((value) => pattern === undefined || pattern.test(value), billerAccountNumberMismatchMessage(biller)),
    nickname: billPayeeNicknameField,
  });
}

export type AddPayeeFormValues = z.input<ReturnType<typeof addPayeeFormSchema>>;
