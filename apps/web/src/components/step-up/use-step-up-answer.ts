import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { recoveryCodeRegex, stepUpCodeLength } from '@strongroom/contracts/step-up.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useSecondsLeft } from '../../lib/use-countdown.ts';
import { resendStepUpCode } from './api/resend-step-up-code.ts';
import { verifyStepUp } from './api/verify-step-up.ts';

/** After a code has been resent, the next may be asked for this much later (sooner if the server says so). */
export const resendCooldownSeconds = 30;

/** How the customer answers: the authenticator app's code, the texted code, or a recovery code. */
export type AnswerMode = 'app' | 'sms' | 'recovery';

export interface StepUpAnswerOptions {
  challengeId: string;
  /** How the customer may answer, best first (the 403's `methods`). */
  methods: readonly string[];
  onVerified: (challengeId: string) => void;
  onRenew: () => void;
}

/** 409: expired, used or out of tries; 404: gone. Either way only a new challenge helps. */
function cannotBeUsed(error: Error): boolean {
  return error instanceof ApiError && (error.code === 'conflict' || error.code === 'not_found');
}

function emptyDigits(): string[] {
  return Array.from({ length: stepUpCodeLength }, () => '');
}

/** Where the focus goes: into the field of the way the customer answers, and back to the first box after a wrong code. */
function useAnswerFocus(mode: AnswerMode, codeError: string | undefined, verifying: boolean) {
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
    if (codeError && !verifying && mode !== 'recovery') codeRef.current?.querySelector('input')?.focus();
  }, [codeError, verifying, mode]);

  return { codeRef, recoveryRef };
}

/**
 * The state of one challenge's answer: which way the customer answers, what is typed, whether a
 * text has been sent and when another may be, and the verify and resend requests.
 */
export function useStepUpAnswer({ challengeId, methods, onVerified, onRenew }: StepUpAnswerOptions) {
  const hasApp = methods.includes('totp');
  const verify = useMutation({ mutationFn: verifyStepUp });
  const resend = useMutation({ mutationFn: resendStepUpCode });
  // With an authenticator app, its code is asked first and no text has been sent yet.
  const [mode, setMode] = useState<AnswerMode>(hasApp ? 'app' : 'sms');
  // The server texts a code at once only when SMS is the customer's one way to answer.
  const [smsSent, setSmsSent] = useState(methods.every((method) => method === 'sms'));
  const [digits, setDigits] = useState(emptyDigits);
  const [recoveryCode, setRecoveryCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [resendNotice, setResendNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [resendAtMs, setResendAtMs] = useState<number | null>(null);
  const waitSeconds = useSecondsLeft(resendAtMs);
  const { codeRef, recoveryRef } = useAnswerFocus(mode, codeError, verify.isPending);

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

  /** Typing clears the message of the last try. */
  function typed<Value>(set: (value: Value) => void) {
    return (value: Value) => {
      set(value);
      if (codeError) setCodeError(undefined);
    };
  }

  return {
    hasApp,
    mode,
    smsSent,
    digits,
    recoveryCode,
    codeError,
    resendNotice,
    waitSeconds,
    codeRef,
    recoveryRef,
    verifying: verify.isPending,
    sending: resend.isPending,
    changeDigits: typed(setDigits),
    changeRecoveryCode: typed(setRecoveryCode),
    switchTo,
    submitCode,
    onSubmit,
    onSendText,
  };
}

export type StepUpAnswer = ReturnType<typeof useStepUpAnswer>;
