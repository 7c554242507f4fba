import type { Database } from '../../db/database.ts';
import { cardsOf, transactionsOfCard, type CardDependencies } from '../cards/service.ts';
import { fundingSourcesOf } from '../funding-sources/service.ts';
import { customerLoanDetail, customerLoans } from '../loans/service.ts';
import { referralListOf, referralOf } from '../referrals/service.ts';

/*
 * The export's files of the customer's products (issue 39 item 8, docs/decisions/061-export-everything-and-search-by-party.md):
 * each is read through the service its own screen reads, so the export shows what the screens show
 * and masks what they mask.
 */

/** cards.json lists at most this many purchases per card, newest first (README.txt says so). */
export const cardPurchasesExportLimit = 10_000;

/** loans.json: every loan of the customer, as `GET /loans/{id}` answers it (the loan, its disclosure and its schedule). */
export async function loansFile(db: Database, customerId: string) {
  const { items } = await customerLoans(db, customerId);
  const loans = [];
  for (const item of items) {
    const detail = await customerLoanDetail(db, customerId, item.id);
    loans.push({ ...detail.loan, disclosure: detail.disclosure, schedule: detail.schedule });
  }
  return { loans };
}

/** A card as each file of the export names it: the last four digits of its number only, never a security code. */
export function exportedCard(card: Awaited<ReturnType<typeof cardsOf>>[number]) {
  return { id: card.id, type: card.type, network: card.network, nameOnCard: card.nameOnCard, last4: card.last4, expiry: card.expiry, status: card.status };
}

/**
 * cards.json: each card as its page shows it, and its purchases. The card's number is never read:
 * the card's service answers the last four digits only, and no security code at all.
 */
export async function cardsFile(dependencies: CardDependencies, customerId: string) {
  const cards = [];
  for (const card of await cardsOf(dependencies, customerId)) {
    const { items } = await transactionsOfCard(dependencies, card.id, cardPurchasesExportLimit);
    cards.push({
      ...exportedCard(card),
      availableCents: card.balanceCents,
      ...(card.creditLimitCents === undefined ? {} : { creditLimitCents: card.creditLimitCents }),
      ...(card.balanceOwedCents === undefined ? {} : { balanceOwedCents: card.balanceOwedCents }),
      perTransactionLimitCents: card.perTransactionLimitCents,
      monthlyLimitCents: card.monthlyLimitCents,
      spentThisMonthCents: card.spentThisMonthCents,
      createdAt: card.createdAt,
      purchases: items,
    });
  }
  return { cards };
}

/** linked-banks.json: the accounts linked at other banks, masked as the screens mask them ("•••• 0055"). */
export async function linkedBanksFile(db: Database, customerId: string) {
  const sources = await fundingSourcesOf(db, customerId);
  return {
    linkedBanks: sources.map((source) => ({
      id: source.id,
      accountName: source.accountName,
      accountType: source.accountType,
      routeNumber: source.routeNumber,
      accountNumberMasked: `•••• ${source.last4}`,
      last4: source.last4,
      status: source.status,
      createdAt: source.createdAt,
      verifiedAt: source.verifiedAt,
    })),
  };
}

/** referrals.json: the code and link, and the referrals as the referrer's own screen lists them (no friend's name or email). */
export async function referralsFile(db: Database, publicUrl: string, customerId: string) {
  const { code, link } = await referralOf(db, publicUrl, customerId);
  const list = await referralListOf(db, customerId);
  return { code, link, referrals: list.items, pendingCount: list.pendingCount, paidCount: list.paidCount, paidCents: list.paidCents };
}
