import { useQueryClient } from '@tanstack/react-query';
import {
  fundingSourceResponseSchema,
  type CreateFundingSourceRequest,
  type FundingSource,
  type FundingSourceResponse,
} from '@strongroom/contracts/funding-sources.ts';
import { apiRequest } from '../../../../lib/api-client.ts';
import { useStepUpRequest, type MoneyRequestHeaders, type StepUpAction, type StepUpOutcome } from '../../../../components/step-up/use-step-up-request.ts';
import type { FundingSourceList } from './get-funding-sources.ts';
import { queryKeys } from '../../../../lib/query-keys.ts';

/**
 * `POST /api/v1/funding-sources` `{ accountName, accountNumber, routeNumber, accountType }` with
 * `Idempotency-Key`: 403 `step_up_required` first, then, repeated with `X-Step-Up`, 201
 * `{ fundingSource }` waiting for its two micro-deposits.
 */
export function createFundingSource(body: CreateFundingSourceRequest, headers: MoneyRequestHeaders): Promise<FundingSourceResponse> {
  return apiRequest('/funding-sources', { method: 'POST', body, headers, parse: (data) => fundingSourceResponseSchema.parse(data) });
}

export const linkStepUp: StepUpAction = {
  subject: 'linking this account',
  notConfirmed: 'We could not confirm this with a code, so the account was not linked. Please try again in a few minutes.',
};

/**
 * Links an account through the step-up flow (render `<StepUpDialog {...dialog} />`); once linked,
 * it is at the top of the list at once, and the notification it made is fetched.
 */
export function useCreateFundingSource() {
  const queryClient = useQueryClient();
  const stepUp = useStepUpRequest(createFundingSource, linkStepUp);

  async function submit(body: CreateFundingSourceRequest): Promise<StepUpOutcome<FundingSource>> {
    const outcome = await stepUp.submit(body);
    if (outcome.status !== 'done') return outcome;
    const { fundingSource } = outcome.result;
    queryClient.setQueryData<FundingSourceList>(
      queryKeys.fundingSources,
      (list) => list && { items: [fundingSource, ...list.items.filter((item) => item.id !== fundingSource.id)] },
    );
    void queryClient.invalidateQueries({ queryKey: queryKeys.fundingSources });
    void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
    return { status: 'done', result: fundingSource };
  }

  return { submit, isPending: stepUp.isPending, dialog: stepUp.dialog };
}
