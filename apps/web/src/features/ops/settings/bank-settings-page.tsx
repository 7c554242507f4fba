import { useEffect } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Save, Trash2 } from 'lucide-react';
import { z } from 'zod';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { bankSettingsSchema, homeCounterLimits } from '@strongroom/contracts/staff-settings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { useStaffMe } from '../api/staff-session.ts';
import { useBankSettings, useSaveBankSettings } from './bank-settings-api.ts';
import './bank-settings.css';

/** The PUT body's schema, with an empty reason field meaning "no reason given". */
const formSchema = bankSettingsSchema.extend({ reason: z.union([z.literal(''), decisionReasonField]) });
type BankSettingsForm = z.input<typeof formSchema>;

/**
 * `/ops/settings`: the bank's address, phone and support email, shown on `/contact` and in the
 * footer, and the figures the home page shows (none, or up to three the bank stands behind).
 */
export default function BankSettingsPage() {
  const settings = useBankSettings();
  const save = useSaveBankSettings();
  const me = useStaffMe();
  const canEdit = me.data?.staff.permissions.includes('settings.edit') ?? false;
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isDirty },
  } = useForm<BankSettingsForm>({ resolver: zodResolver(formSchema), mode: 'onTouched' });
  const figures = useFieldArray({ control, name: 'homeCounters' });

  const current = settings.data;
  useEffect(() => {
    if (current) reset({ address: current.address, phone: current.phone, supportEmail: current.supportEmail, homeCounters: current.homeCounters, reason: '' });
  }, [current, reset]);

  const onSubmit = handleSubmit((values) => save.mutate({ ...values, reason: values.reason === '' ? undefined : values.reason }));

  return (
    <section aria-labelledby="bank-settings-title" className="ops-page">
      <h1 id="bank-settings-title">Bank settings</h1>
      <p>What the public contact page, the footer and the home page show. A saved change is visible to visitors on their next page load.</p>
      {settings.isPending ? (
        <p>
          <Spinner size="sm" /> Loading the settings
        </p>
      ) : null}
      {settings.isError ? <LoadFailed title="The settings could not be loaded" query={settings} /> : null}
      {current ? (
        <form noValidate onSubmit={onSubmit} className="ops-form">
          <fieldset disabled={!canEdit || save.isPending}>
            <legend className="visually-hidden">Contact details</legend>
            <TextAreaField label="Address" rows={3} required error={errors.address?.message} {...register('address')} />
            <TextField label="Phone" type="tel" required error={errors.phone?.message} {...register('phone')} />
            <TextField label="Support email" type="email" required error={errors.supportEmail?.message} {...register('supportEmail')} />
            <fieldset className="ops-form__group">
              <legend>Home page figures</legend>
              <p className="field__hint">
                Up to {homeCounterLimits.maxCounters} figures the bank stands behind, such as its number of customers. With none, the home page shows no
                figures.
              </p>
              {figures.fields.length === 0 ? <p>No figures: the home page shows none.</p> : null}
              {figures.fields.map((figure, index) => (
                <div key={figure.id} className="ops-form__row" role="group" aria-label={`Figure ${index + 1}`}>
                  <TextField label="Label" required error={errors.homeCounters?.[index]?.label?.message} {...register(`homeCounters.${index}.label`)} />
                  <TextField
                    label="Figure"
                    required
                    inputMode="numeric"
                    error={errors.homeCounters?.[index]?.value?.message}
                    {...register(`homeCounters.${index}.value`, { setValueAs: (value: unknown) => (value === '' ? undefined : Number(value)) })}
                  />
                  <Checkbox label="At least this many (shows a +)" {...register(`homeCounters.${index}.atLeast`)} />
                  <Button type="button" variant="secondary" onClick={() => figures.remove(index)}>
                    <Trash2 aria-hidden="true" size={18} />
                    Remove<span className="visually-hidden"> figure {index + 1}</span>
                  </Button>
                </div>
              ))}
              {figures.fields.length < homeCounterLimits.maxCounters ? (
                <Button type="button" variant="secondary" onClick={() => figures.append({ label: '', value: 0, atLeast: false })}>
                  <Plus aria-hidden="true" size={18} />
                  Add a figure
                </Button>
              ) : null}
              {errors.homeCounters?.message ? <p role="alert">{errors.homeCounters.message}</p> : null}
            </fieldset>
            <TextField label="Reason for the change" optional hint="Kept in the audit log" error={errors.reason?.message} {...register('reason')} />
          </fieldset>
          {canEdit ? (
            <Button type="submit" loading={save.isPending} disabled={!isDirty}>
              <Save aria-hidden="true" size={18} />
              Save and publish
            </Button>
          ) : (
            <Notice>Only an administrator can change these settings.</Notice>
          )}
          {save.isSuccess ? (
            <Notice tone="success" role="status">
              Saved. The contact page shows the new details.
            </Notice>
          ) : null}
          {save.isError ? (
            <Notice tone="error" role="alert">
              {save.error.message}
            </Notice>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
