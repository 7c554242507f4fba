import { PageMeta } from '../../../components/page-meta.tsx';
import { formatPrice } from '../../../lib/money.ts';
import { OfferCard, OfferComparison } from '../components/offer-card.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { savingsAccounts, savingsBenefits } from '../offers.ts';
import '../public-pages.css';

export function SavingsPage() {
  return (
    <>
      <PageMeta
        title="Savings accounts"
        description="Compare our three savings accounts: Standard Savings from a $500 opening deposit, Platinum Select Money Market from $2,500 and Package Money Market from $5,000."
      />
      <PageHero eyebrow="Personal · Savings" title="Savings accounts">
        <p>
          Put money aside and watch it grow. Each account comes with premium support, transfers to US banks and competitive interest; they differ in the opening
          deposit and the cards included.
        </p>
      </PageHero>
      <OfferComparison
        label="Savings accounts compared"
        finePrint={
          <p className="fine-print">
            The opening deposit is the least you pay in when the account opens; after that the money is yours to withdraw. Interest rates can change, and we
            tell you before they do.
          </p>
        }
      >
        {savingsAccounts.map((account) => (
          <OfferCard
            key={account.name}
            name={account.name}
            price={formatPrice(account.openingDepositCents)}
            priceUnit="opening deposit"
            summary={account.summary}
            points={[account.cards, ...savingsBenefits]}
            actionTo={`/signup?product=${account.product}`}
            actionLabel="Open an account"
          />
        ))}
      </OfferComparison>
    </>
  );
}
