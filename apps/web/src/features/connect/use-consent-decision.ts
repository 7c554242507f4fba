import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { ApproveConnectRequest } from '@strongroom/contracts/connected-apps.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useStepUpRequest, type StepUpAction } from '../../components/step-up/use-step-up-request.ts';
import { approveConnectRequest, refuseConnectRequest } from './api/connect-requests.ts';
import { appNavigation } from './leave-for-app.ts';

export const connectStepUp: StepUpAction = {
  subject: 'connecting this app',
  notConfirmed: 'We could not confirm it’s you with a code, so the app was not connected. Please try again in a few minutes.',
};

/** What the page shows after a decision that did not go through. */
export type DecisionProblem = { kind: 'gone' } | { kind: 'message'; message: string } | { kind: 'fields'; error: ApiError };

function problemOf(error: unknown): DecisionProblem {
  if (error instanceof ApiError && error.status === 404) return { kind: 'gone' };
  if (error instanceof ApiError && error.code === 'validation_failed' && Object.keys(error.fields).length > 0) return { kind: 'fields', error };
  if (error instanceof ApiError) return { kind: 'message', message: error.message };
  return { kind: 'message', message: 'Something went wrong. Please try again.' };
}

/**
 * Allow (behind a step-up, with the web's own code dialog) or refuse; either way the browser goes
 * on to the bank's authorization server, which sends it back to the app. Until it has gone, the
 * buttons stay busy, so a second press cannot answer twice.
 */
export function useConsentDecision(uid: string) {
  const [problem, setProblem] = useState<DecisionProblem | null>(null);
  const [leaving, setLeaving] = useState(false);
  const stepUp = useStepUpRequest((body: ApproveConnectRequest, headers) => approveConnectRequest(uid, body, headers), connectStepUp);

  function leave(redirectTo: string) {
    setLeaving(true);
    appNavigation.leave(redirectTo);
  }

  const refusal = useMutation({
    mutationFn: () => refuseConnectRequest(uid),
    onSuccess: ({ redirectTo }) => leave(redirectTo),
    onError: (error) => setProblem(problemOf(error)),
  });

  async function allow(body: ApproveConnectRequest): Promise<void> {
    setProblem(null);
    const outcome = await stepUp.submit(body);
    if (outcome.status === 'done') leave(outcome.result.redirectTo);
    else if (outcome.status === 'failed') setProblem(problemOf(outcome.error));
  }

  return {
    allow,
    refuse: () => {
      setProblem(null);
      refusal.mutate();
    },
    allowing: stepUp.isPending || (leaving && !refusal.isSuccess),
    refusing: refusal.isPending || refusal.isSuccess,
    stepUpDialog: stepUp.dialog,
    problem,
    clearProblem: () => setProblem(null),
  };
}
