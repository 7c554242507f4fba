import { useCallback, useEffect, useRef, useState } from 'react';
import { idempotencyKeyHeader, stepUpHeader } from '@strongroom/contracts/payments.ts';
import { ApiError } from '../../lib/api-client.ts';
import { settlesSubmission, useSubmissionKey } from '../../lib/idempotency-key.ts';
import type { StepUpChallenge, StepUpDialogProps } from './step-up-dialog.tsx';

/**
 * A challenge that is spent, expired or refused is replaced by a new one; after this many in one
 * submission something is wrong that another code will not fix.
 */
export const maxStepUpRounds = 3;

export type MoneyRequestHeaders = Readonly<Record<string, string>>;

/** An endpoint's fetcher: it sends `headers` as they are (Idempotency-Key, and X-Step-Up on a repeat). */
export type SendMoneyRequest<Body, Result> = (body: Body, headers: MoneyRequestHeaders) => Promise<Result>;

/** Expected failures are values: the screen decides where each one is shown. */
export type StepUpOutcome<Result> = { status: 'done'; result: Result } | { status: 'cancelled' } | { status: 'failed'; error: unknown };

type ChallengeAnswer = { type: 'verified'; challengeId: string } | { type: 'renew' } | { type: 'cancelled' };

function headersFor(idempotencyKey: string, verifiedChallengeId: string | undefined): MoneyRequestHeaders {
  return verifiedChallengeId ? { [idempotencyKeyHeader]: idempotencyKey, [stepUpHeader]: verifiedChallengeId } : { [idempotencyKeyHeader]: idempotencyKey };
}

/** What a code confirms, in the words the dialog and its messages use. */
export interface StepUpAction {
  /** 'this payment': the code works 'only for this payment'. */
  subject: string;
  /** Why nothing happened when no code could confirm it. */
  notConfirmed: string;
}

export const paymentStepUp: StepUpAction = {
  subject: 'this payment',
  notConfirmed: 'We could not confirm this payment with a code, so it was not sent. Please try again in a few minutes.',
};

function tooManyChallenges(action: StepUpAction): ApiError {
  return new ApiError({ status: 403, code: 'step_up_required', message: action.notConfirmed });
}

/** Shown with a challenge that replaces one which expired, was used, ran out of tries or did not fit the request. */
export function renewedChallengeNotice(action: StepUpAction = paymentStepUp): string {
  return `The last code could no longer be used for ${action.subject}, so we sent you a new one.`;
}

/**
 * Sends a money-moving request the way docs/product.md D10 and section 5 ask: with one Idempotency-Key
 * per submission, kept for retries; when the server answers 403 `step_up_required`, the code dialog
 * opens (render `<StepUpDialog {...dialog} />`), and once the code is verified the same request goes
 * again with the same key and `X-Step-Up`. A challenge that can no longer be verified (409) is
 * replaced by sending the original request again without `X-Step-Up`, which answers a new one.
 */
export function useStepUpRequest<Body, Result>(send: SendMoneyRequest<Body, Result>, action: StepUpAction = paymentStepUp) {
  const submissionKey = useSubmissionKey();
  const [challenge, setChallenge] = useState<StepUpChallenge | null>(null);
  const [isPending, setIsPending] = useState(false);
  const runningRef = useRef(false);
  const answerRef = useRef<((answer: ChallengeAnswer) => void) | null>(null);

  const answer = useCallback((value: ChallengeAnswer) => {
    const resolve = answerRef.current;
    answerRef.current = null;
    setChallenge(null);
    resolve?.(value);
  }, []);

  // A screen left while its dialog is open ends the submission there.
  useEffect(() => () => answerRef.current?.({ type: 'cancelled' }), []);

  function askForCode(next: StepUpChallenge): Promise<ChallengeAnswer> {
    return new Promise((resolve) => {
      answerRef.current = resolve;
      setChallenge(next);
    });
  }

  async function run(body: Body): Promise<StepUpOutcome<Result>> {
    const idempotencyKey = submissionKey.keyFor(body);
    let verifiedChallengeId: string | undefined;
    let renewed = false;
    for (let round = 0; ; round += 1) {
      try {
        const result = await send(body, headersFor(idempotencyKey, verifiedChallengeId));
        submissionKey.release();
        return { status: 'done', result };
      } catch (error) {
        // Anything but an API error (an answer that does not parse) leaves the outcome open: keep the key.
        if (!(error instanceof ApiError)) return { status: 'failed', error };
        if (error.code !== 'step_up_required' || error.challengeId === undefined) {
          if (settlesSubmission(error)) submissionKey.release();
          return { status: 'failed', error };
        }
        if (round >= maxStepUpRounds) return { status: 'failed', error: tooManyChallenges(action) };
        // A verified challenge that the repeat did not accept, or one given up on: this one replaces it.
        const notice = verifiedChallengeId !== undefined || renewed ? renewedChallengeNotice(action) : undefined;
        const reply = await askForCode({ challengeId: error.challengeId, message: error.message, notice, subject: action.subject, methods: error.methods });
        if (reply.type === 'cancelled') return { status: 'cancelled' };
        verifiedChallengeId = reply.type === 'verified' ? reply.challengeId : undefined;
        renewed = reply.type === 'renew';
      }
    }
  }

  /** One submission at a time: a second press while one is running is ignored. */
  async function submit(body: Body): Promise<StepUpOutcome<Result>> {
    if (runningRef.current) return { status: 'cancelled' };
    runningRef.current = true;
    setIsPending(true);
    try {
      return await run(body);
    } finally {
      runningRef.current = false;
      setIsPending(false);
    }
  }

  const dialog: StepUpDialogProps = {
    challenge,
    onVerified: (challengeId) => answer({ type: 'verified', challengeId }),
    onRenew: () => answer({ type: 'renew' }),
    onCancel: () => answer({ type: 'cancelled' }),
  };

  return { submit, isPending, dialog };
}

/**
 * `useStepUpRequest` with what follows a done request (refresh what it changed): for the settings
 * and forms whose answer only needs the cache brought up to date. Render `<StepUpDialog {...dialog} />`.
 */
export function useStepUpRequestThen<Body, Result>(send: SendMoneyRequest<Body, Result>, action: StepUpAction, onDone: (result: Result) => void) {
  const stepUp = useStepUpRequest(send, action);
  async function submit(body: Body): Promise<StepUpOutcome<Result>> {
    const outcome = await stepUp.submit(body);
    if (outcome.status === 'done') onDone(outcome.result);
    return outcome;
  }
  return { submit, isPending: stepUp.isPending, dialog: stepUp.dialog };
}
