import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { formatPrice } from '../../../lib/money.ts';
import { OfferCard, OfferComparison } from '../components/offer-card.tsx';
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
      <OfferComparison
        label="Cards compared"
        finePrint={
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
        }
      >
        {offers.map((offer) => (
          <OfferCard
            key={offer.key}
            art={
              <div className={`card-art card-art--${offer.key}`} aria-hidden="true">
                <span>{offer.name}</span>
              </div>
            }
            name={offer.name}
            price={formatPrice(offer.fee)}
            priceUnit="annual fee"
            summary={offer.summary}
            points={offer.perks}
            actionTo="/card-form"
            actionLabel="Request this card"
          />
        ))}
      </OfferComparison>
    </>
  );
}
