import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { PageMeta } from '../../../components/page-meta.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
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
      <section className="section" aria-label="Checking accounts compared">
        <div className="container">
          <ul className="card-grid">
            {checkingAccounts.map((account) => (
              <Card as="li" key={account.name} className="offer">
                <h2>{account.name}</h2>
                <p className="offer__price">
                  <span className="offer__amount">{formatMoney(account.monthlyFeeCents)}</span>
                  <span className="offer__unit">monthly maintenance fee</span>
                </p>
                <p>{account.summary}</p>
                <ul className="check-list">
                  {account.features.map((feature) => (
                    <li key={feature}>
                      <Check aria-hidden="true" size={18} />
                      {feature}
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
            The monthly maintenance fee is taken from the account on the same day each month and shows in your history like any other payment. There are no
            other account fees.
          </p>
        </div>
      </section>
    </>
  );
}
