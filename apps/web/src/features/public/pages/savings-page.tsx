import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { PageMeta } from '../../../components/page-meta.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { formatPrice } from '../../../lib/money.ts';
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
      <section className="section" aria-label="Savings accounts compared">
        <div className="container">
          <ul className="card-grid">
            {savingsAccounts.map((account) => (
              <Card as="li" key={account.name} className="offer">
                <h2>{account.name}</h2>
                <p className="offer__price">
                  <span className="offer__amount">{formatPrice(account.openingDepositCents)}</span>
                  <span className="offer__unit">opening deposit</span>
                </p>
                <p>{account.summary}</p>
                <ul className="check-list">
                  <li>
                    <Check aria-hidden="true" size={18} />
                    {account.cards}
                  </li>
                  {savingsBenefits.map((benefit) => (
                    <li key={benefit}>
                      <Check aria-hidden="true" size={18} />
                      {benefit}
                    </li>
                  ))}
                </ul>
                <Link to={`/signup?product=${account.product}`} className={buttonClassName({ variant: 'primary', block: true }, 'offer__action')}>
                  Open an account<span className="visually-hidden">: {account.name}</span>
                </Link>
              </Card>
            ))}
          </ul>
          <p className="fine-print">
            The opening deposit is the least you pay in when the account opens; after that the money is yours to withdraw. Interest rates can change, and we
            tell you before they do.
          </p>
        </div>
      </section>
    </>
  );
}
