import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { cardRules, type CardRevealResponse } from '@strongroom/contracts/cards.ts';
import { ApiError } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useSecondsLeft } from '../../lib/use-countdown.ts';
import { useStepUpRequest } from '../../components/step-up/use-step-up-request.ts';
import { revealCard, revealStepUp } from './api/reveal-card.ts';

/**
 * Reveal behind a step-up (D9): the number, CVV and expiry stay on screen for
 * `cardRules.revealVisibleSeconds` and are then forgotten (not only hidden: the state drops them).
 */
export function useCardReveal(cardId: string) {
  const queryClient = useQueryClient();
  const stepUp = useStepUpRequest((_body: null, headers) => revealCard(cardId, headers), revealStepUp);
  const [revealed, setRevealed] = useState<{ details: CardRevealResponse; hideAtMs: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const secondsLeft = useSecondsLeft(revealed?.hideAtMs ?? null);
  const expired = revealed !== null && secondsLeft === 0;

  useEffect(() => {
    if (expired) setRevealed(null);
  }, [expired]);

  async function reveal() {
    setError(null);
    const outcome = await stepUp.submit(null);
    if (outcome.status === 'done') {
      setRevealed({ details: outcome.result, hideAtMs: Date.now() + cardRules.revealVisibleSeconds * 1_000 });
      // The reveal is now in the "Card number viewed" list.
      void queryClient.invalidateQueries({ queryKey: queryKeys.cardReveals(cardId) });
    } else if (outcome.status === 'failed') {
      setError(outcome.error instanceof ApiError ? outcome.error.message : 'We could not show the card number. Please try again.');
    }
  }

  return {
    revealed: expired ? null : (revealed?.details ?? null),
    secondsLeft,
    reveal,
    hide: () => setRevealed(null),
    isPending: stepUp.isPending,
    stepUpDialog: stepUp.dialog,
    error,
    clearError: () => setError(null),
  };
}
