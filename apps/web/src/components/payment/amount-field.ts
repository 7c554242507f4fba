import { z } from 'zod';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { parseDollarsToCents, type DollarsParseResult } from '@strongroom/contracts/money-input.ts';

type AmountProblem = Extract<DollarsParseResult, { ok: false }>['reason'];

const amountMessages = {
  invalid: validationMessages.amountTypedInvalid,
  not_positive: validationMessages.amountNotPositive,
  fractional_cent: validationMessages.amountFractionalCent,
  too_large: validationMessages.amountTooLarge,
} as const satisfies Record<AmountProblem, string>;

/**
 * An amount as a person types it ("1,250.50", "$20") in, integer cents out. parseDollarsToCents
 * does the arithmetic on the digits, never through a float.
 */
export const amountTextField = z.string().transform((text, context) => {
  if (text.trim() === '') {
    context.addIssue({ code: 'custom', message: validationMessages.required, input: text });
    return z.NEVER;
  }
  const parsed = parseDollarsToCents(text);
  if (!parsed.ok) {
    context.addIssue({ code: 'custom', message: amountMessages[parsed.reason], input: text });
    return z.NEVER;
  }
  return parsed.cents;
});

/** The props every amount input shares: text, so that "1,000.50" can be typed, with the decimal keypad. */
export const amountInputProps = {
  label: 'Amount',
  type: 'text',
  inputMode: 'decimal',
  autoComplete: 'off',
  hint: 'In dollars, such as 25.00',
  required: true,
} as const;
