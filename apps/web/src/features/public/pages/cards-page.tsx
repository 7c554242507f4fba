import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { formatPrice } from '../../../lib/money.ts';
import { PageHero } from '../components/page-hero.tsx';
import { cardOffers } from '../offers.ts';
import '../public-pages.css';
import './cards-page.css';

const { go, connect, reserve } = cardOffers;

const offers = [
  {
    key: 'go',
    name: go.name,
    fee: go.annualFeeCents,
    summary: 'A no-fee card for everyday spending that rewards the basics.',
    perks: ['2x points at restaurants and on groceries', '1x points on everything else', 'No annual fee'],
  },
  {
    key: 'connect',
    name: connect.name,
    fee: connect.annualFeeCents,
    summary: 'For life online: streaming, phone and internet bills earn the most.',
    perks: ['3x points on streaming, phone and internet', '2x points on groceries, 1x elsewhere', 'No annual fee'],
  },
  {
    key: 'reserve',
    name: reserve.name,
    fee: reserve.annualFeeCents,
    summary: 'Our signature card, with the most points and a welcome offer.',
    perks: [
      `${formatPrice(reserve.introBonusCents)} intro offer in statement credits over your first ${reserve.introBillingCycles} billing cycles`,
      '4x points on travel and dining, 2x on groceries, 1x elsewhere',
      'Monthly streaming credit toward one streaming subscription',
    ],
  },
] as const;

export function CardsPage() {
  const { mode } = useBankIdentity();
  return (
    <>
      <PageMeta
        title="Credit cards"
        description={`Compare the Go, Connect and Reserve Signature cards: points on everyday spending, a streaming credit, and a ${formatPrice(reserve.introBonusCents)} intro offer on Reserve.`}
      />
      <PageHero eyebrow="Cards" title="Cards that reward how you spend">
        <p>Three cards on Visa or Mastercard. Points add up on what you already buy, and every fee is shown up front.</p>
      </PageHero>
      <section className="section" aria-label="Cards compared">
        <div className="container">
          <ul className="card-grid">
            {offers.map((offer) => (
              <Card as="li" key={offer.key} className="offer">
                <div className={`card-art card-art--${offer.key}`} aria-hidden="true">
                  <span>{offer.name}</span>
                </div>
                <h2>{offer.name}</h2>
                <p className="offer__price">
                  <span className="offer__amount">{formatPrice(offer.fee)}</span>
                  <span className="offer__unit">annual fee</span>
                </p>
                <p>{offer.summary}</p>
                <ul className="check-list">
                  {offer.perks.map((perk) => (
                    <li key={perk}>
                      <Check aria-hidden="true" size={18} />
                      {perk}
                    </li>
                  ))}
                </ul>
                <Link to="/card-form" className={buttonClassName({ variant: 'primary', block: true }, 'offer__action')}>
                  Request this card<span className="visually-hidden">: {offer.name}</span>
                </Link>
              </Card>
            ))}
          </ul>
          <div className="fine-print">
            <p>
              <strong>Intro APR.</strong> Purchases carry a 0% intro APR for the first {reserve.introBillingCycles} billing cycles after the account opens;
              after that a variable APR applies, which we show you before you accept the card. Paying the full balance each month means you pay no interest.
            </p>
            <p>
              Cards are requested from online banking. You need an available balance of {formatPrice(businessConstants.cardMinimumSavingsCents)} on your savings
              account, and our staff review each request within {businessConstants.cardApprovalDays} days.
            </p>
            {mode === 'sandbox' ? <p>This is a sandbox bank: its cards work only inside the sandbox, and no real credit is offered.</p> : null}
          </div>
        </div>
      </section>
    </>
  );
}
