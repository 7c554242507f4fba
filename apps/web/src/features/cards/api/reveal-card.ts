import { cardRevealResponseSchema, type CardRevealResponse } from '@strongroom/contracts/cards.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { MoneyRequestHeaders, StepUpAction } from '../../../components/step-up/use-step-up-request.ts';

/** What the code confirms on this screen, in the step-up dialog's words. */
export const revealStepUp: StepUpAction = {
  subject: 'showing this card’s number',
  notConfirmed: 'We could not confirm it’s you with a code, so the card number stays hidden. Please try again in a few minutes.',
};

/**
 * `POST /api/v1/cards/{id}/reveal` -> `{ number, cvv, expiry }`: the only answer with the full
 * number. It always asks for a step-up first (403 `step_up_required`); the repeat carries `X-Step-Up`.
 */
export function revealCard(id: string, headers: MoneyRequestHeaders): Promise<CardRevealResponse> {
  return apiRequest(`/cards/${encodeURIComponent(id)}/reveal`, { method: 'POST', headers, parse: (data) => cardRevealResponseSchema.parse(data) });
}
