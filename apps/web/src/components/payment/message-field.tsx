import type { UseFormRegisterReturn } from 'react-hook-form';
import { paymentMessageMaxLength } from '@strongroom/contracts/payments.ts';
import { TextField } from '../ui/text-field.tsx';

interface PaymentMessageFieldProps {
  registration: UseFormRegisterReturn<'message'>;
  /** What is typed so far, for the counter. */
  value: string;
  error: string | undefined;
  /** Between the customer's own accounts nobody else reads it: marked "(optional)" and not required (decision 060). */
  optional?: boolean;
}

/**
 * A payment's message, which the seed requires and people take for optional: marked "(required)",
 * with a counter towards its 140 characters so the limit is seen before it is met. The counter is
 * part of the hint, read once with the field rather than announced at every key.
 */
export function PaymentMessageField({ registration, value, error, optional = false }: PaymentMessageFieldProps) {
  const counter = `${value.length} of ${paymentMessageMaxLength} characters.`;
  return (
    <TextField
      label="Message"
      requiredMark={!optional}
      required={!optional}
      optional={optional}
      maxLength={paymentMessageMaxLength}
      hint={optional ? `For you: it shows in your history. ${counter}` : `The recipient sees it. ${counter}`}
      error={error}
      {...registration}
    />
  );
}
