import type { Card } from '@strongroom/contracts/cards.ts';

/** A card as the API answers it; ids are UUIDs, as the contract's paths expect. */
export function cardOf(overrides: Partial<Card> = {}): Card {
  return {
    id: '5b1d8c2e-7f3a-4c6b-9d0e-1a2b3c4d5e6f',
    type: 'debit',
    network: 'visa',
    nameOnCard: 'Ada Lovelace',
    last4: '4242',
    expiry: '11/29',
    status: 'active',
    balanceCents: 425_000,
    perTransactionLimitCents: 250_000,
    monthlyLimitCents: 1_000_000,
    spentThisMonthCents: 12_500,
    rejectionReason: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export const cardList = (items: Card[]) => ({ status: 200, body: { items } });
