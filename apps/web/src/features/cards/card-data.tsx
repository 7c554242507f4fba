import type { ReactNode } from 'react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Card } from '@strongroom/contracts/cards.ts';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { useMe } from '../../lib/api/get-me.ts';
import { useCards } from '../../lib/api/get-cards.ts';
import { LoadingLine } from '../../components/ui/loading-line.tsx';

export interface CardScreenData {
  cards: readonly Card[];
  accounts: readonly Account[];
  /** "First Last": the name a new card starts with. */
  defaultName: string;
}

/** What the card screens need before they can say anything: the cards, the accounts and the customer's name. */
export function CardScreenData({ children }: { children: (data: CardScreenData) => ReactNode }) {
  const cards = useCards();
  const accounts = useAccounts();
  const me = useMe();
  if (cards.isPending || accounts.isPending) {
    return <LoadingLine className="cards__loading">Loading your cards…</LoadingLine>;
  }
  if (cards.isError) return <LoadFailed title="We could not load your cards" query={cards} />;
  if (accounts.isError) return <LoadFailed title="We could not load your accounts" query={accounts} />;
  const user = me.data?.user;
  const defaultName = user ? `${user.firstName} ${user.lastName}` : '';
  return <>{children({ cards: cards.data, accounts: accounts.data, defaultName })}</>;
}
