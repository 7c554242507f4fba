import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { z } from 'zod';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { bankSettingsSchema } from '@strongroom/contracts/staff-settings.ts';
import { Button } from '../../../components/ui/button.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { useStaffMe } from '../api/staff-session.ts';
import { useBankSettings, useSaveBankSettings } from './bank-settings-api.ts';

/** The PUT body's schema, with an empty reason field meaning "no reason given". */
const formSchema = bankSettingsSchema.extend({ reason: z.union([z.literal(''), decisionReasonField]) });
type BankSettingsForm = z.input<typeof formSchema>;

/** `/ops/settings`: the bank's address, phone and support email, shown on `/contact` and in the footer. */
export default function BankSettingsPage() {
  const settings = useBankSettings();
  const save = useSaveBankSettings();
  const me = useStaffMe();
  const canEdit = me.data?.staff.permissions.includes('settings.edit') ?? false;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<BankSettingsForm>({ resolver: zodResolver(formSchema), mode: 'onTouched' });

  const current = settings.data;
  useEffect(() => {
    if (current) reset({ address: current.address, phone: current.phone, supportEmail: current.supportEmail, reason: '' });
  }, [current, reset]);

  const onSubmit = handleSubmit((values) => save.mutate({ ...values, reason: values.reason === '' ? undefined : values.reason }));

  return (
    <section aria-labelledby="bank-settings-title" className="ops-page">
      <h1 id="bank-settings-title">Bank settings</h1>
      <p>What the public contact page and the footer show. A saved change is visible to visitors on their next page load.</p>
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
