import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { MessageSquareText } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CodeInput } from '../../../components/ui/code-input.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { resendPhoneCode } from '../api/resend-phone-code.ts';
import { useVerifyPhoneCode } from '../api/verify-phone-code.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { ResendButton } from '../components/resend-button.tsx';
import { pathForNextStep } from '../next-step.ts';
import type { PhoneSignupState } from './phone-signup-page.tsx';
import { useAfterStepError } from './use-after-step-error.ts';
import './onboarding-pages.css';

/**
 * What /phonesignup passes on: the number, written out in international form ('+1 202 555 0147')
 * to show it back. It comes formatted so that this page does not load the phone-number library.
 */
export interface PhoneVerificationState {
  phoneNumber: string | undefined;
}

function phoneNumberOf(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('phoneNumber' in state)) return undefined;
  return typeof state.phoneNumber === 'string' ? state.phoneNumber : undefined;
}

function emptyDigits(): string[] {
  return Array.from({ length: businessConstants.phoneCodeDigits }, () => '');
}

/**
 * /phoneverification: the 4-digit code from the SMS, one digit per box; it is sent as soon as the
 * last box is filled. 'Resend code' sends a new one (at most once a minute).
 */
export default function PhoneVerificationPage() {
  const navigate = useNavigate();
  const { state } = useLocation();
  const phoneNumber = phoneNumberOf(state);
  const verify = useVerifyPhoneCode();
  const afterStepError = useAfterStepError();
  const [digits, setDigits] = useState(emptyDigits);
  const [codeError, setCodeError] = useState<string | undefined>();
  const [dialogError, setDialogError] = useState<unknown>(null);
  const codeRef = useRef<HTMLFieldSetElement>(null);
  const complete = digits.every((digit) => digit !== '');

  // A wrong code is typed again from the start, once the boxes are enabled again.
  useEffect(() => {
    if (codeError && !verify.isPending) codeRef.current?.querySelector('input')?.focus();
  }, [codeError, verify.isPending]);

  function submit(code: string) {
    if (verify.isPending) return;
    setCodeError(undefined);
    verify.mutate(code, {
      onSuccess: (session) => navigate(pathForNextStep(session.next, session.user.email), { replace: true }),
      onError: (error) => {
        // Another customer's phone (decision 055): the number is what must change, so the customer
        // goes back to it, the reason shown on the number's field.
        const phoneMessage = error instanceof ApiError ? error.fields.phoneNumber : undefined;
        if (phoneMessage) {
          const back: PhoneSignupState = { phoneNumberError: phoneMessage };
          navigate('/phonesignup', { replace: true, state: back });
          return;
        }
        const fieldMessage = error instanceof ApiError ? error.fields.code : undefined;
        if (fieldMessage) {
          setCodeError(fieldMessage);
          setDigits(emptyDigits());
        } else {
          setDialogError(error);
        }
      },
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (complete) submit(digits.join(''));
    else setCodeError(`Enter all ${businessConstants.phoneCodeDigits} digits of the code.`);
  }

  return (
    <AuthScreen
      title="Enter the code"
      pageTitle="Verify your phone"
      description="Enter the code we sent to your phone."
      icon={<MessageSquareText aria-hidden="true" size={28} />}
      lead={<p>We sent a 4-digit code by SMS to {phoneNumber ? <strong>{phoneNumber}</strong> : 'your phone'}. It works for 10 minutes.</p>}
    >
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <CodeInput
          ref={codeRef}
          label="Code from the SMS"
          digits={digits}
          onDigitsChange={(next) => {
            setDigits(next);
            if (codeError) setCodeError(undefined);
          }}
          onComplete={submit}
          error={codeError}
          disabled={verify.isPending}
          autoFocus
        />
        <Button type="submit" size="lg" block loading={verify.isPending}>
          Verify
        </Button>
      </form>
      <div className="onboarding-help">
        <p>Didn’t get a code?</p>
        <ResendButton label="Resend code" noun="code" send={resendPhoneCode} errorTitle="The code was not sent" />
        <Link to="/phonesignup" className="onboarding-help__link">
          Change the phone number
        </Link>
      </div>
      <ErrorDialog
        title="The code was not checked"
        message={dialogError instanceof Error ? dialogError.message : null}
        onClose={() => {
          afterStepError(dialogError);
          setDialogError(null);
        }}
      />
    </AuthScreen>
  );
}
