import { Mail } from 'lucide-react';
import { emailChangeRequestSchema, type ContactDetails, type EmailChangeRequest } from '@strongroom/contracts/contact-details.ts';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import { useStartEmailChange } from './api/contact-details.ts';
import { placeChangeError } from './change-errors.ts';
import { SettingsSection, SettingsSubmit } from '../settings-section.tsx';
import { useSettingsForm } from '../use-settings-form.ts';

/**
 * The email address: a code first (a factor the customer already has), then a link to the new
 * address. The address changes only once that link is opened, signed in; the old one is told.
 */
export function EmailSection({ contact }: { contact: ContactDetails }) {
  const start = useStartEmailChange();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
    errorMessage,
    setErrorMessage,
    closeError,
  } = useSettingsForm<EmailChangeRequest>(emailChangeRequestSchema, { email: '' });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await start.submit(values);
    if (outcome.status === 'done') reset({ email: '' });
    else if (outcome.status === 'failed') setErrorMessage(placeChangeError(outcome.error, ['email'], setError));
  });

  return (
    <SettingsSection icon={Mail} title="Email address">
      <p className="security-section__lead">
        Now: <strong className="contact-details__value">{contact.email}</strong>
      </p>
      {contact.pendingEmail ? (
        <Notice tone="info" role="status">
          We sent a link to <strong className="contact-details__value">{contact.pendingEmail.email}</strong>. Open it while signed in to confirm the new
          address; it works until {formatDateTime(contact.pendingEmail.expiresAt)}. Until then we keep writing to {contact.email}.
        </Notice>
      ) : null}
      <form className="security-form" noValidate onSubmit={onSubmit} aria-label="Change email address">
        <TextField
          label="New email address"
          type="email"
          autoComplete="email"
          hint="We ask for a code first, then send a link to the new address."
          error={errors.email?.message}
          {...register('email')}
        />
        <SettingsSubmit loading={start.isPending}>Send a confirmation link</SettingsSubmit>
      </form>
      <StepUpDialog {...start.dialog} />
      <ErrorDialog title="Your email address was not changed" message={errorMessage} onClose={closeError} />
    </SettingsSection>
  );
}
