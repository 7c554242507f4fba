import type { UseFormRegisterReturn } from 'react-hook-form';
import { paymentMessageMaxLength } from '@strongroom/contracts/payments.ts';
import { TextField } from '../../../components/ui/text-field.tsx';

interface PaymentMessageFieldProps {
  registration: UseFormRegisterReturn<'message'>;
  /** What is typed so far, for the counter. */
  value: string;
  error: string | undefined;
}

/**
 * A payment's message, which the seed requires and people take for optional: marked "(required)",
 * with a counter towards its 140 characters so the limit is seen before it is met. The counter is
 * part of the hint, read once with the field rather than announced at every key.
 */
export function PaymentMessageField({ registration, value, error }: PaymentMessageFieldProps) {
  return (
    <TextField
      label="Message"
      requiredMark
      required
      maxLength={paymentMessageMaxLength}
      hint={`The recipient sees it. ${value.length} of ${paymentMessageMaxLength} characters.`}
      error={error}
      {...registration}
    />
  );
}
