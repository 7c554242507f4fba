import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { KeyRound, MessageSquare, Send, ShieldCheck, Smartphone } from 'lucide-react';
import { recoveryCodeRegex, stepUpCodeLength, stepUpCodeValidMinutes, stepUpMaxAttempts } from '@strongroom/contracts/step-up.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { Button } from '../ui/button.tsx';
import { CodeInput } from '../ui/code-input.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { Notice } from '../ui/notice.tsx';
import { TextField } from '../ui/text-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { UsePasskeyButton } from './use-passkey-button.tsx';
import { useSecondsLeft } from '../../lib/use-countdown.ts';
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
  /**
   * How the customer may answer, best first (the 403's `methods`): with 'totp' the dialog asks for
   * the authenticator app's code and sends a text only when asked ("Send me a text instead"), as
   * with 'passkey'. Only 'sms' (or none named) means the code was texted already.
   */
  methods: readonly string[];
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

/**
 * The code dialog of a step-up (docs/product.md D10): the authenticator app's code first when the customer
 * has one (or a recovery code), the SMS code otherwise or on request. Its state lives as long as its challenge.
 */
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

type AnswerMode = 'app' | 'sms' | 'recovery';

function StepUpForm({ challenge, onVerified, onRenew, onCancel }: StepUpFormProps) {
  const { challengeId } = challenge;
  const hasApp = challenge.methods.includes('totp');
  const verify = useMutation({ mutationFn: verifyStepUp });
  const resend = useMutation({ mutationFn: resendStepUpCode });
  // With an authenticator app, its code is asked first and no text has been sent yet.
  const [mode, setMode] = useState<AnswerMode>(hasApp ? 'app' : 'sms');
  // The server texts a code at once only when SMS is the customer's one way to answer.
  const [smsSent, setSmsSent] = useState(challenge.methods.every((method) => method === 'sms'));
  const [digits, setDigits] = useState(emptyDigits);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [resendNotice, setResendNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [resendAtMs, setResendAtMs] = useState<number | null>(null);
  const waitSeconds = useSecondsLeft(resendAtMs);
  const codeRef = useRef<HTMLFieldSetElement>(null);
  const recoveryRef = useRef<HTMLInputElement>(null);

  // The dialog opens itself (showModal) in an effect that runs after this one; the first box is
  // focused once that has happened, so the code can be typed at once. Changing the way to answer
  // moves the focus to the new field.
  useEffect(() => {
    queueMicrotask(() => (mode === 'recovery' ? recoveryRef.current?.focus() : codeRef.current?.querySelector('input')?.focus()));
  }, [mode]);

  // After a wrong code the boxes are empty and enabled again; typing starts from the first.
  useEffect(() => {
    if (codeError && !verify.isPending && mode !== 'recovery') codeRef.current?.querySelector('input')?.focus();
  }, [codeError, verify.isPending, mode]);

  function switchTo(next: AnswerMode) {
    setMode(next);
    setDigits(emptyDigits());
    setRecoveryCode('');
    setCodeError(undefined);
  }

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
    if (mode === 'recovery') {
      if (recoveryCodeRegex.test(recoveryCode.trim())) submitCode(recoveryCode.trim());
      else setCodeError('Enter one of your recovery codes, such as abcde-23456.');
      return;
    }
    if (digits.every((digit) => digit !== '')) submitCode(digits.join(''));
    else setCodeError(validationMessages.stepUpCodeInvalid);
  }

  /** Sends the text: the first one when the customer chooses SMS instead of the app, or a new one. */
  function onSendText() {
    setResendNotice(null);
    resend.mutate(challengeId, {
      onSuccess: ({ sentTo }) => {
        setResendNotice({ tone: 'success', text: smsSent ? `We sent a new code to ${sentTo}.` : `We sent a code to ${sentTo}.` });
        setSmsSent(true);
        if (mode !== 'sms') switchTo('sms');
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
  const lead =
    mode === 'app'
      ? `Enter the ${stepUpCodeLength}-digit code your authenticator app shows.`
      : mode === 'recovery'
        ? 'Enter one of the recovery codes you saved when you set up your authenticator app. Each works once.'
        : hasApp
          ? `Enter the ${stepUpCodeLength}-digit code we sent you by text message.`
          : challenge.message;
  return (
    <div className="step-up">
      <div className="step-up__lead">
        <ShieldCheck aria-hidden="true" size={24} className="step-up__icon" />
        <div>
          <p>{lead}</p>
          <p className="step-up__validity">
            {mode === 'sms' && smsSent
              ? `The code works for ${stepUpCodeValidMinutes} minutes and only for ${challenge.subject}.`
              : `It confirms ${challenge.subject} and nothing else.`}
          </p>
        </div>
      </div>
      {challenge.notice ? (
        <Notice tone="info" role="status">
          <p>{challenge.notice}</p>
        </Notice>
      ) : null}
      {challenge.methods.includes('passkey') ? <UsePasskeyButton challengeId={challengeId} onVerified={onVerified} onRenew={onRenew} /> : null}
      {mode === 'sms' && !smsSent ? null : (
        <form className="step-up__form" noValidate onSubmit={onSubmit}>
          {mode === 'recovery' ? (
            <TextField
              ref={recoveryRef}
              label="Recovery code"
              value={recoveryCode}
              onChange={(event) => {
                setRecoveryCode(event.target.value);
                if (codeError) setCodeError(undefined);
              }}
              error={codeError}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              disabled={verify.isPending}
            />
          ) : (
            <CodeInput
              ref={codeRef}
              label={mode === 'app' ? `${stepUpCodeLength}-digit code from your authenticator app` : `${stepUpCodeLength}-digit code`}
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
          )}
          <Button type="submit" block loading={verify.isPending}>
            Verify
          </Button>
        </form>
      )}
      <div className="step-up__resend">
        {mode === 'sms' && smsSent ? (
          <Button variant="secondary" onClick={onSendText} loading={resend.isPending} disabled={waiting} aria-describedby={waiting ? waitId : undefined}>
            <Send aria-hidden="true" size={16} />
            Resend code
          </Button>
        ) : null}
        {!smsSent ? (
          <Button variant="secondary" onClick={onSendText} loading={resend.isPending}>
            <MessageSquare aria-hidden="true" size={16} />
            Send me a text instead
          </Button>
        ) : null}
        {mode !== 'sms' && smsSent ? (
          <Button variant="secondary" onClick={() => switchTo('sms')}>
            <MessageSquare aria-hidden="true" size={16} />
            Use the code we texted you
          </Button>
        ) : null}
        {hasApp && mode !== 'app' ? (
          <Button variant="ghost" onClick={() => switchTo('app')}>
            <Smartphone aria-hidden="true" size={16} />
            Use my authenticator app
          </Button>
        ) : null}
        {hasApp && mode !== 'recovery' ? (
          <Button variant="ghost" onClick={() => switchTo('recovery')}>
            <KeyRound aria-hidden="true" size={16} />
            Use a recovery code
          </Button>
        ) : null}
        {waiting && mode === 'sms' ? (
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
