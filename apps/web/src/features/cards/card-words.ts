import type { Card, CardStatus } from '@strongroom/contracts/cards.ts';
import { cardTypeLabels } from '@strongroom/contracts/cards.ts';

export const cardStatusLabels: Readonly<Record<CardStatus, string>> = {
  pending_approval: 'Awaiting approval',
  active: 'Active',
  frozen: 'Frozen',
  rejected: 'Rejected',
  closed: 'Closed',
};

/** "•••• •••• •••• 1234": the last four digits are all any answer but reveal carries. */
export function maskedNumber(last4: string): string {
  return `•••• •••• •••• ${last4}`;
}

/** "1234 5678 9012 3456": the revealed number in groups of four, as it is printed on a card. */
export function groupedNumber(number: string): string {
  return number.replace(/\D/g, '').replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "Debit Card ending 1234", for the names of links and buttons. */
export function cardName(card: Pick<Card, 'type' | 'last4'>): string {
  return `${cardTypeLabels[card.type]} ending ${card.last4}`;
}

/** The cards the customer can use or look at: approved ones, active or frozen (the seed's "approved cards"). */
export function isApproved(card: Pick<Card, 'status'>): boolean {
  return card.status === 'active' || card.status === 'frozen';
}
