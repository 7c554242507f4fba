import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Card } from '@strongroom/contracts/cards.ts';
import { cardMessages } from '@strongroom/contracts/cards.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { ApiError } from '../../lib/api-client.ts';

/**
 * Why a card cannot be requested now, in the seed's words (seed-spec section 5), or null when it
 * can. Each message shows only when it applies (D12); the server checks the same rules again.
 */
export type CardRequestBlock = { kind: 'pending'; message: string } | { kind: 'refused'; message: string };

export function awaitingApproval(cards: readonly Pick<Card, 'status'>[]): boolean {
  return cards.some((card) => card.status === 'pending_approval');
}

export function cardRequestBlock(
  cards: readonly Pick<Card, 'status'>[],
  accounts: readonly Pick<Account, 'type' | 'availableCents'>[],
): CardRequestBlock | null {
  if (awaitingApproval(cards)) return { kind: 'pending', message: cardMessages.pendingApproval };
  if (accounts.length === 0) return { kind: 'refused', message: cardMessages.noAccount };
  const savings = accounts.find((account) => account.type === 'savings');
  if (!savings || BigInt(savings.availableCents) < businessConstants.cardMinimumSavingsCents) {
    return { kind: 'refused', message: cardMessages.savingsBalanceRequired };
  }
  return null;
}

/** The server's refusal of a request in the seed's words; anything else keeps the server's own message. */
export function refusalMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'no_account') return cardMessages.noAccount;
    if (error.code === 'savings_balance_required') return cardMessages.savingsBalanceRequired;
    if (error.code === 'card_pending_approval') return cardMessages.pendingApproval;
    return error.message;
  }
  return 'We could not read the bank’s answer. Please look at your cards before you try again.';
}
