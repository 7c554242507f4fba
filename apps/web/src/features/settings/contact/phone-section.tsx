import { Smartphone } from 'lucide-react';
import {
  phoneChangeConfirmRequestSchema,
  phoneChangeRequestSchema,
  type ContactDetails,
  type PhoneChangeConfirmRequest,
  type PhoneChangeRequest,
} from '@strongroom/contracts/contact-details.ts';
import { onboardingMessages } from '@strongroom/contracts/onboarding.ts';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { defaultCountryCode, formatPhoneNumber, internationalPhoneNumber, phoneCountryOptions } from '../../../lib/countries.ts';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import { useConfirmPhoneChange, useStartPhoneChange } from './api/contact-details.ts';
import { placeChangeError } from './change-errors.ts';
import { SettingsSection, SettingsSubmit } from '../settings-section.tsx';
import { useSettingsForm } from '../use-settings-form.ts';

/** The contract's schema, plus the check the server makes with libphonenumber-js (as at sign-up). */
const phoneFormSchema = phoneChangeRequestSchema.superRefine((form, context) => {
  if (/\d/.test(form.phoneNumber) && !internationalPhoneNumber(form.countryCode, form.phoneNumber)) {
    context.addIssue({ code: 'custom', path: ['phoneNumber'], message: onboardingMessages.phoneInvalid });
  }
});

function CodeForm({ sentTo, onDone }: { sentTo: string; onDone: (number: string) => void }) {
  const confirm = useConfirmPhoneChange();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
    errorMessage,
    setErrorMessage,
    closeError,
  } = useSettingsForm<PhoneChangeConfirmRequest>(phoneChangeConfirmRequestSchema, { code: '' });

  const onSubmit = handleSubmit((values) =>
    confirm.mutate(values.code, {
      onSuccess: (answer) => onDone(answer.phone.number),
      onError: (error) => setErrorMessage(placeChangeError(error, ['code'], setError)),
    }),
  );

  return (
    <form className="security-form" noValidate onSubmit={onSubmit} aria-label="Confirm new phone number">
      <TextField
        label="Code from the text message"
        inputMode="numeric"
        autoComplete="one-time-code"
        hint={`We texted a 4-digit code to ${sentTo}.`}
        error={errors.code?.message}
        {...register('code')}
      />
      <SettingsSubmit loading={confirm.isPending}>Confirm new number</SettingsSubmit>
      <ErrorDialog title="Your phone number was not changed" message={errorMessage} onClose={closeError} />
    </form>
  );
}

/**
 * The phone number: a code first (to the phone on file, or a passkey or app), then a 4-digit code
 * to the new number. The number changes once that code is confirmed; the old number is told.
 */
export function PhoneSection({ contact }: { contact: ContactDetails }) {
  const start = useStartPhoneChange();
  const toast = useToast();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
    errorMessage,
    setErrorMessage,
    closeError,
  } = useSettingsForm<PhoneChangeRequest>(phoneFormSchema, { countryCode: defaultCountryCode, phoneNumber: '' });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await start.submit(values);
    if (outcome.status === 'failed') setErrorMessage(placeChangeError(outcome.error, ['countryCode', 'phoneNumber'], setError));
  });

  function done(number: string) {
    reset({ countryCode: defaultCountryCode, phoneNumber: '' });
    toast.show(`Your phone number is now ${formatPhoneNumber(number)}. We told your old number and your email.`);
  }

  return (
    <SettingsSection icon={Smartphone} title="Phone number">
      <p className="security-section__lead">
        Now: <strong className="contact-details__value">{contact.phone ? formatPhoneNumber(contact.phone.number) : 'none'}</strong>. Security codes go to it.
      </p>
      <form className="security-form" noValidate onSubmit={onSubmit} aria-label="Change phone number">
        <SelectField label="Country" options={phoneCountryOptions} error={errors.countryCode?.message} {...register('countryCode')} />
        <TextField label="New phone number" type="tel" autoComplete="tel-national" error={errors.phoneNumber?.message} {...register('phoneNumber')} />
        <SettingsSubmit loading={start.isPending}>Text a code to the new number</SettingsSubmit>
      </form>
      {contact.pendingPhone ? (
        <>
          <Notice tone="info" role="status">
            Enter the code we texted to {contact.pendingPhone.sentTo}. It works until {formatDateTime(contact.pendingPhone.expiresAt)}.
          </Notice>
          <CodeForm sentTo={contact.pendingPhone.sentTo} onDone={done} />
        </>
      ) : null}
      <StepUpDialog {...start.dialog} />
      <ErrorDialog title="Your phone number was not changed" message={errorMessage} onClose={closeError} />
    </SettingsSection>
  );
}
