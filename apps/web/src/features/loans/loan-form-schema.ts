import { z } from 'zod';
import { loanApplicationRequestSchema, maritalStatuses } from '@strongroom/contracts/loans.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { parseDollarsToCents, type DollarsParseResult } from '@strongroom/contracts/money-input.ts';

type DollarsProblem = Extract<DollarsParseResult, { ok: false }>['reason'];

/**
 * Dollars as a person types them ("25,000", "$1,250.50") in, integer cents out, by the digits only
 * (parseDollarsToCents). Empty says 'field should not be empty' and anything that is not a number
 * 'number is not valid' (seed section 5); the range is the contract field's, checked after.
 */
function dollarsText(outOfRange: Readonly<Record<'not_positive' | 'too_large', string>>) {
  const messages: Readonly<Record<DollarsProblem, string>> = {
    invalid: validationMessages.numberInvalid,
    fractional_cent: validationMessages.amountFractionalCent,
    ...outOfRange,
  };
  return z.string().transform((text, context) => {
    if (text.trim() === '') {
      context.addIssue({ code: 'custom', message: validationMessages.required, input: text });
      return z.NEVER;
    }
    const parsed = parseDollarsToCents(text);
    if (!parsed.ok) {
      context.addIssue({ code: 'custom', message: messages[parsed.reason], input: text });
      return z.NEVER;
    }
    return parsed.cents;
  });
}

/** A whole number of months: digits only, so "12.5" or "twelve" is 'number is not valid'. */
const wholeNumberText = z.string().transform((text, context) => {
  const trimmed = text.trim();
  if (trimmed === '') {
    context.addIssue({ code: 'custom', message: validationMessages.required, input: text });
    return z.NEVER;
  }
  // At most four digits: enough to be out of range and say so, never a number too big to be exact.
  if (!/^\d{1,4}$/.test(trimmed)) {
    context.addIssue({ code: 'custom', message: validationMessages.numberInvalid, input: text });
    return z.NEVER;
  }
  return Number(trimmed);
});

const request = loanApplicationRequestSchema.shape;
const amountBoundMessage = 'the amount is $500 to $100,000';

/** The application form: the request's fields with the numbers as typed text, checked by the contract's own rules. */
export const loanFormSchema = z.object({
  maritalStatus: z.union([z.literal(''), z.enum(maritalStatuses)]).pipe(request.maritalStatus),
  occupation: request.occupation,
  address: request.address,
  amount: dollarsText({ not_positive: amountBoundMessage, too_large: amountBoundMessage }).pipe(request.amountCents),
  annualIncome: dollarsText({ not_positive: validationMessages.amountNotPositive, too_large: validationMessages.amountTooLarge }).pipe(
    request.annualIncomeCents,
  ),
  purpose: request.purpose,
  durationMonths: wholeNumberText.pipe(request.durationMonths),
});

export type LoanFormInput = z.input<typeof loanFormSchema>;
export type LoanFormOutput = z.output<typeof loanFormSchema>;

export const emptyLoanForm: LoanFormInput = {
  maritalStatus: '',
  occupation: '',
  address: '',
  amount: '',
  annualIncome: '',
  purpose: '',
  durationMonths: '',
};
