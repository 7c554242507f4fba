import { PageMeta } from '../../../components/page-meta.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { OfferCard, OfferComparison } from '../components/offer-card.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { checkingAccounts } from '../offers.ts';
import '../public-pages.css';

export function CurrentPage() {
  return (
    <>
      <PageMeta
        title="Current accounts"
        description="Three checking accounts for everyday banking: Easy Checking at $6.95, Gold Checking at $14.95 and Platinum Checking at $24.95 monthly maintenance fee."
      />
      <PageHero eyebrow="Personal · Current" title="Current accounts">
        <p>
          A checking account for the money you use every day: your salary in, your bills and card payments out. Pick the tier that fits; each has one clear
          monthly maintenance fee.
        </p>
      </PageHero>
      <OfferComparison
        label="Checking accounts compared"
        finePrint={
          <p className="fine-print">
            The monthly maintenance fee is taken from the account on the same day each month and shows in your history like any other payment. There are no
            other account fees.
          </p>
        }
      >
        {checkingAccounts.map((account) => (
          <OfferCard
            key={account.name}
            name={account.name}
            price={formatMoney(account.monthlyFeeCents)}
            priceUnit="monthly maintenance fee"
            summary={account.summary}
            points={account.features}
            actionTo={`/signup?product=${account.product}`}
            actionLabel="Open an account"
          />
        ))}
      </OfferComparison>
    </>
  );
}
