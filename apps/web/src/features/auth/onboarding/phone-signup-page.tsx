import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useLocation, useNavigate } from 'react-router';
import { Smartphone } from 'lucide-react';
import { onboardingMessages, phoneSignupRequestSchema, type PhoneSignupRequest } from '@strongroom/contracts/onboarding.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useStartPhoneVerification } from '../api/start-phone-verification.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { defaultCountryCode, formatPhoneNumber, internationalPhoneNumber, phoneCountryOptions } from '../../../lib/countries.ts';
import type { PhoneVerificationState } from './phone-verification-page.tsx';
import { useAfterStepError } from './use-after-step-error.ts';

/** The contract's schema, plus the server's own test of the number against the chosen country. */
const phoneFormSchema = phoneSignupRequestSchema.superRefine((form, context) => {
  if (/\d/.test(form.phoneNumber) && !internationalPhoneNumber(form.countryCode, form.phoneNumber)) {
    context.addIssue({ code: 'custom', path: ['phoneNumber'], message: onboardingMessages.phoneInvalid });
  }
});

/** What /phoneverification passes back when the number cannot be this customer's: why, for its field. */
export interface PhoneSignupState {
  phoneNumberError: string | undefined;
}

function phoneNumberErrorOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('phoneNumberError' in state)) return undefined;
  return typeof state.phoneNumberError === 'string' ? state.phoneNumberError : undefined;
}

/** /phonesignup: the country (with its calling code) and the number; a 4-digit code goes to it by SMS. */
export default function PhoneSignupPage() {
  const navigate = useNavigate();
  const { state } = useLocation();
  const phoneNumberError = phoneNumberErrorOf(state);
  const start = useStartPhoneVerification();
  const afterStepError = useAfterStepError();
  const [dialogError, setDialogError] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PhoneSignupRequest>({
    resolver: zodResolver(phoneFormSchema),
    mode: 'onTouched',
    defaultValues: { countryCode: defaultCountryCode, phoneNumber: '' },
  });

  useEffect(() => {
    if (phoneNumberError) setError('phoneNumber', { message: phoneNumberError }, { shouldFocus: true });
  }, [phoneNumberError, setError]);

  const onSubmit = handleSubmit((values) => {
    start.mutate(values, {
      onSuccess: () => {
        const e164 = internationalPhoneNumber(values.countryCode, values.phoneNumber);
        const state: PhoneVerificationState = { phoneNumber: e164 ? formatPhoneNumber(e164) : undefined };
        navigate('/phoneverification', { state });
      },
      onError: (error) => {
        if (!showServerFieldErrors(error, ['countryCode', 'phoneNumber'], setError)) setDialogError(error);
      },
    });
  });

  return (
    <AuthScreen
      title="Your phone number"
      description="Add the phone number we will text codes to."
      icon={<Smartphone aria-hidden="true" size={28} />}
      lead={<p>We text a 4-digit code to this number to check that it is yours. We use it again to confirm payments.</p>}
    >
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <SelectField label="Country" options={phoneCountryOptions} error={errors.countryCode?.message} {...register('countryCode')} />
        <TextField
          label="Phone number"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          required
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        <Button type="submit" size="lg" block loading={start.isPending}>
          Text me a code
        </Button>
      </form>
      <ErrorDialog
        title="The code was not sent"
        message={dialogError instanceof Error ? dialogError.message : null}
        onClose={() => {
          afterStepError(dialogError);
          setDialogError(null);
        }}
      />
    </AuthScreen>
  );
}
