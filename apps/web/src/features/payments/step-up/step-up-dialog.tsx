import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Send, ShieldCheck } from 'lucide-react';
import { stepUpCodeLength, stepUpCodeValidMinutes, stepUpMaxAttempts } from '@strongroom/contracts/step-up.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CodeInput } from '../../../components/ui/code-input.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSecondsLeft } from '../../../lib/use-countdown.ts';
import { resendStepUpCode } from './api/resend-step-up-code.ts';
import { verifyStepUp } from './api/verify-step-up.ts';
import './step-up-dialog.css';

/** After a code has been resent, the next may be asked for this much later (sooner if the server says so). */
export const resendCooldownSeconds = 30;

export interface StepUpChallenge {
  challengeId: string;
  /** The server's words, which say where the code went. */
  message: string;
  /** Why this is a new challenge, when it replaces one that could not be used. */
  notice: string | undefined;
  /** What the code confirms: 'this payment', 'linking this account'. */
  subject: string;
}

export interface StepUpDialogProps {
  challenge: StepUpChallenge | null;
  onVerified: (challengeId: string) => void;
  /** The challenge cannot be verified any more (expired, used, too many tries): ask for a new one. */
  onRenew: () => void;
  onCancel: () => void;
}

/** 409: expired, used or out of tries; 404: gone. Either way only a new challenge helps. */
function cannotBeUsed(error: Error): boolean {
  return error instanceof ApiError && (error.code === 'conflict' || error.code === 'not_found');
}

function emptyDigits(): string[] {
  return Array.from({ length: stepUpCodeLength }, () => '');
}

/** The code dialog of a step-up (PRODUCT.md D10). Its state lives as long as its challenge. */
export function StepUpDialog({ challenge, onVerified, onRenew, onCancel }: StepUpDialogProps) {
  return (
    <Dialog open={challenge !== null} onClose={onCancel} title="Confirm it’s you" size="sm">
      {challenge ? <StepUpForm key={challenge.challengeId} challenge={challenge} onVerified={onVerified} onRenew={onRenew} onCancel={onCancel} /> : null}
    </Dialog>
  );
}

interface StepUpFormProps extends Omit<StepUpDialogProps, 'challenge'> {
  challenge: StepUpChallenge;
}

function StepUpForm({ challenge, onVerified, onRenew, onCancel }: StepUpFormProps) {
  const { challengeId } = challenge;
  const verify = useMutation({ mutationFn: verifyStepUp });
  const resend = useMutation({ mutationFn: resendStepUpCode });
  const [digits, setDigits] = useState(emptyDigits);
  const [codeError, setCodeError] = useState<string | undefined>();
  const [resendNotice, setResendNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [resendAtMs, setResendAtMs] = useState<number | null>(null);
  const waitSeconds = useSecondsLeft(resendAtMs);
  const codeRef = useRef<HTMLFieldSetElement>(null);

  // The dialog opens itself (showModal) in an effect that runs after this one; the first box is
  // focused once that has happened, so the code can be typed at once.
  useEffect(() => {
    queueMicrotask(() => codeRef.current?.querySelector('input')?.focus());
  }, []);

  // After a wrong code the boxes are empty and enabled again; typing starts from the first.
  useEffect(() => {
    if (codeError && !verify.isPending) codeRef.current?.querySelector('input')?.focus();
  }, [codeError, verify.isPending]);

  function submitCode(code: string) {
    if (verify.isPending) return;
    setCodeError(undefined);
    verify.mutate(
      { challengeId, code },
      {
        onSuccess: () => onVerified(challengeId),
        onError: (error) => {
          if (cannotBeUsed(error)) {
            onRenew();
            return;
          }
          // A wrong code: the server's words say how many tries are left, or to ask for a new code.
          const fieldMessage = error instanceof ApiError ? error.fields.code : undefined;
          setDigits(emptyDigits());
          setCodeError(fieldMessage ?? error.message);
        },
      },
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (digits.every((digit) => digit !== '')) submitCode(digits.join(''));
    else setCodeError(validationMessages.stepUpCodeInvalid);
  }

  function onResend() {
    setResendNotice(null);
    resend.mutate(challengeId, {
      onSuccess: ({ sentTo }) => {
        setResendNotice({ tone: 'success', text: `We sent a new code to ${sentTo}.` });
        setResendAtMs(Date.now() + resendCooldownSeconds * 1_000);
      },
      onError: (error) => {
        if (cannotBeUsed(error)) {
          onRenew();
          return;
        }
        setResendNotice({ tone: 'error', text: error.message });
        if (error instanceof ApiError && error.code === 'rate_limited') {
          setResendAtMs(Date.now() + (error.retryAfterSeconds ?? resendCooldownSeconds) * 1_000);
        }
      },
    });
  }

  const waiting = waitSeconds > 0;
  const waitId = `${challengeId}-resend-wait`;
  return (
    <div className="step-up">
      <div className="step-up__lead">
        <ShieldCheck aria-hidden="true" size={24} className="step-up__icon" />
        <div>
          <p>{challenge.message}</p>
          <p className="step-up__validity">
            The code works for {stepUpCodeValidMinutes} minutes and only for {challenge.subject}.
          </p>
        </div>
      </div>
      {challenge.notice ? (
        <Notice tone="info" role="status">
          <p>{challenge.notice}</p>
        </Notice>
      ) : null}
      <form className="step-up__form" noValidate onSubmit={onSubmit}>
        <CodeInput
          ref={codeRef}
          label={`${stepUpCodeLength}-digit code`}
          digits={digits}
          onDigitsChange={(next) => {
            setDigits(next);
            if (codeError) setCodeError(undefined);
          }}
          onComplete={submitCode}
          error={codeError}
          hint={`${stepUpMaxAttempts} tries for each code.`}
          disabled={verify.isPending}
        />
        <Button type="submit" block loading={verify.isPending}>
          Verify
        </Button>
      </form>
      <div className="step-up__resend">
        <Button variant="secondary" onClick={onResend} loading={resend.isPending} disabled={waiting} aria-describedby={waiting ? waitId : undefined}>
          <Send aria-hidden="true" size={16} />
          Resend code
        </Button>
        {waiting ? (
          <p className="step-up__wait" id={waitId}>
            You can ask for another code in {waitSeconds} s.
          </p>
        ) : null}
        <div role="status">
          {resendNotice ? (
            <Notice tone={resendNotice.tone}>
              <p>{resendNotice.text}</p>
            </Notice>
          ) : null}
        </div>
      </div>
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}
