import type { BankToday } from '@strongroom/contracts/calendar.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ChoiceGroup } from '../../components/payment/choice-group.tsx';
import { cutoffNotice, formatDay } from './schedule-dates.ts';
import type { DateLimits } from './schedule-form-schema.ts';
import type { ScheduleForm } from './payee-fields.tsx';

const repeatChoices = [
  { value: 'once', label: 'Once on a date' },
  { value: 'repeating', label: 'Repeating' },
] as const;

const frequencyOptions = [
  { value: 'weekly', label: 'Every week' },
  { value: 'biweekly', label: 'Every two weeks' },
  { value: 'monthly', label: 'Every month' },
];

const dayOptions = [
  ...Array.from({ length: 31 }, (_, index) => ({ value: String(index + 1), label: `Day ${index + 1}` })),
  { value: 'last', label: 'Last business day' },
];

const endChoices = [
  { value: 'never', label: 'Until I cancel' },
  { value: 'date', label: 'On a date' },
  { value: 'count', label: 'After a number of payments' },
] as const;

export interface WhenFieldsProps {
  form: ScheduleForm;
  limits: DateLimits;
  today: BankToday;
}

/** When: once on a date, or repeating (how often, from when, until when), with the cut-off in words. */
export function WhenFields({ form, limits, today }: WhenFieldsProps) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const repeating = watch('repeat') === 'repeating';
  const ends = watch('ends');
  const dateHint = today.pastCutoff
    ? `${cutoffNotice(today.achCutoff)} Today’s cut-off has passed: the earliest date is ${formatDay(limits.earliest, { withYear: true })}.`
    : cutoffNotice(today.achCutoff);
  return (
    <fieldset className="schedule-when">
      <legend className="schedule-when__legend">When</legend>
      <ChoiceGroup legend="How often" choices={repeatChoices} registration={register('repeat')} />
      {repeating ? (
        <div className="money-form__pair">
          <SelectField label="Repeats" options={frequencyOptions} required {...register('frequency')} />
          {watch('frequency') === 'monthly' ? (
            <SelectField
              label="Day of the month"
              options={dayOptions}
              hint="In a shorter month, a 29th, 30th or 31st is paid on its last day."
              required
              error={errors.dayOfMonth?.message}
              {...register('dayOfMonth')}
            />
          ) : null}
        </div>
      ) : null}
      <TextField
        label={repeating ? 'First payment date' : 'Payment date'}
        type="date"
        min={limits.earliest}
        max={limits.latest}
        hint={dateHint}
        required
        error={errors.startDate?.message}
        {...register('startDate')}
      />
      {repeating ? (
        <>
          <ChoiceGroup legend="Ends" choices={endChoices} registration={register('ends')} error={errors.ends?.message} />
          {ends === 'date' ? (
            <TextField
              label="Last payment date"
              type="date"
              min={limits.earliest}
              max={limits.latest}
              required
              error={errors.endDate?.message}
              {...register('endDate')}
            />
          ) : null}
          {ends === 'count' ? (
            <TextField
              label="Number of payments"
              type="text"
              inputMode="numeric"
              autoComplete="off"
              required
              error={errors.count?.message}
              {...register('count')}
            />
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
