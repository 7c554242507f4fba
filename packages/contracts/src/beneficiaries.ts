import { z } from 'zod';
import { accountTypeSchema } from './accounts.ts';
import { countryField } from './countries.ts';
import { textField } from './fields.ts';
import { accountNumberField, personNameField, routeNumberField } from './payments.ts';

/** 'otherbank' is the seed's value for other banks; 'mybank' is an account at this bank (tab 'My Bank'). */
export const bankTypeSchema = z.enum(['mybank', 'otherbank']);
export type BankType = z.infer<typeof bankTypeSchema>;

/**
 * `POST /beneficiaries`: the seed's five text fields (all required) and the bank type. A payee of
 * this bank is checked as paying checks it: 422 `payee_name_mismatch` when the name is not the
 * account's, 422 `own_account_payee` for the customer's own account (decision 060).
 */
export const createBeneficiaryRequestSchema = z.object({
  bankName: textField(100),
  accountName: personNameField,
  accountNumber: accountNumberField,
  nameOfCountry: countryField,
  routeNumber: routeNumberField,
  bankType: bankTypeSchema,
});
export type CreateBeneficiaryRequest = z.input<typeof createBeneficiaryRequestSchema>;

export const beneficiarySchema = z.object({
  id: z.string(),
  accountName: z.string(),
  accountNumber: z.string(),
  routeNumber: z.string(),
  bankName: z.string(),
  nameOfCountry: z.string(),
  bankType: bankTypeSchema,
  /** For an account at this bank, its type (the transfer form fills it in); null for other banks. */
  accountType: accountTypeSchema.nullable(),
  createdAt: z.iso.datetime(),
});
export type Beneficiary = z.infer<typeof beneficiarySchema>;

/** `GET /beneficiaries` -> `{ items }`, newest first; `DELETE /beneficiaries/{id}` -> 204. */
export const beneficiaryListSchema = z.object({ items: z.array(beneficiarySchema) });
export const beneficiaryResponseSchema = z.object({ beneficiary: beneficiarySchema });
