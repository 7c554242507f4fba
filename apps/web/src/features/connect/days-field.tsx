import type { UseFormReturn } from 'react-hook-form';
import { TextField } from '../../components/ui/text-field.tsx';
import { endDateInWords, type ConsentFormValues } from './consent-schema.ts';

/** For how long: a number of days, with the day the access ends in words under it. */
export function DaysField({ form, maxDays }: { form: UseFormReturn<ConsentFormValues>; maxDays: number }) {
  const days = form.watch('days');
  const end = endDateInWords(days);
  return (
    <TextField
      label="For how long (days)"
      type="number"
      inputMode="numeric"
      min={1}
      max={maxDays}
      step={1}
      className="consent__days"
      hint={
        <>
          {`1 to ${maxDays} days. `}
          <span aria-live="polite">{end ? `Access ends on ${end}.` : 'Enter a number of days to see when access ends.'}</span>
        </>
      }
      error={form.formState.errors.days?.message}
      {...form.register('days', { valueAsNumber: true })}
    />
  );
}
