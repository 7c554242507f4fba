import type { QueryKey } from '@tanstack/react-query';

/** Every query key of the staff console; all start with `staff`, so signing out drops them together. */
export const staffQueryKeys = {
  all: ['staff'],
  me: ['staff', 'me'],
  members: ['staff', 'members'],
  customers: ['staff', 'customers'],
  customerSearch: (q: string) => ['staff', 'customers', 'search', q],
  customer: (id: string) => ['staff', 'customers', 'detail', id],
  heldTransfers: (status: string) => ['staff', 'held-transfers', status],
  payments: (date: string) => ['staff', 'payments', date],
  achPayments: (date: string) => ['staff', 'payments', 'ach', date],
  identityReviews: ['staff', 'identity-reviews'],
  identityReviewList: (status: string) => ['staff', 'identity-reviews', 'list', status],
  identityReview: (id: string) => ['staff', 'identity-reviews', 'one', id],
  messages: ['staff', 'messages'],
  messageList: (status: string) => ['staff', 'messages', 'list', status],
  loans: ['staff', 'loans'],
  loanList: (status: string) => ['staff', 'loans', 'list', status],
  settings: ['staff', 'settings'],
  cards: ['staff', 'cards'],
  cardList: (status: string) => ['staff', 'cards', 'list', status],
  cardAuthorizations: (cardId: string) => ['staff', 'card-simulator', cardId],
  audit: (filter: Readonly<Record<string, string>>) => ['staff', 'audit', filter],
} as const satisfies Record<string, QueryKey | ((...parts: never[]) => QueryKey)>;
