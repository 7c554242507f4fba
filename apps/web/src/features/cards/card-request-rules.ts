import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Card } from '@strongroom/contracts/cards.ts';
import { cardMessages } from '@strongroom/contracts/cards.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { ApiError } from '../../lib/api-client.ts';

/**
 * Why a card cannot be requested now, in the seed's words (seed-spec section 5), or null when it
 * can. Each message shows only when it applies (D12); the server checks the same rules again.
 * Without an open account there is nothing to refuse yet: the screen says why there is none
 * (`NoAccountNotice`, decision 057) in place of the form.
 */
export type CardRequestBlock = { kind: 'pending'; message: string } | { kind: 'refused'; message: string } | { kind: 'no_account' };

export function awaitingApproval(cards: readonly Pick<Card, 'status'>[]): boolean {
  return cards.some((card) => card.status === 'pending_approval');
}

export function cardRequestBlock(
  cards: readonly Pick<Card, 'status'>[],
  accounts: readonly Pick<Account, 'type' | 'availableCents'>[],
): CardRequestBlock | null {
  if (awaitingApproval(cards)) return { kind: 'pending', message: cardMessages.pendingApproval };
  if (accounts.length === 0) return { kind: 'no_account' };
  const savings = accounts.find((account) => account.type === 'savings');
  if (!savings || BigInt(savings.availableCents) < businessConstants.cardMinimumSavingsCents) {
    return { kind: 'refused', message: cardMessages.savingsBalanceRequired };
  }
  return null;
}

/**
 * The server's refusal of a request in the seed's words; anything else keeps the server's own
 * message (`no_account` among them: the server knows why the customer has no account).
 */
export function refusalMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'savings_balance_required') return cardMessages.savingsBalanceRequired;
    if (error.code === 'card_pending_approval') return cardMessages.pendingApproval;
    return error.message;
  }
  return 'We could not read the bank’s answer. Please look at your cards before you try again.';
}
