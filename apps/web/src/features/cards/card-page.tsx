import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ChevronLeft, ChevronRight, Plus } from 'lucide-react';
import { cardMessages, type Card } from '@strongroom/contracts/cards.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { CardPicture } from './card-picture.tsx';
import { CardScreenData } from './card-data.tsx';
import { nextCardIndex, previousCardIndex } from './card-paging.ts';
import { ApprovalNotice, CardRequestForm } from './card-request-form.tsx';
import { awaitingApproval } from './card-request-rules.ts';
import { cardName, isApproved } from './card-words.ts';
import './cards.css';

/** The approved cards one at a time, with Prev/Next that wrap round when there is more than one. */
function CardCarousel({ cards }: { cards: readonly Card[] }) {
  const [index, setIndex] = useState(0);
  const count = cards.length;
  const shown = cards[Math.min(index, count - 1)];
  if (!shown) return null;
  return (
    <section className="card-carousel" aria-roledescription="carousel" aria-label="Your cards">
      <div aria-live="polite" className="card-carousel__slide">
        <CardPicture card={shown} />
        {count > 1 ? (
          <p className="card-carousel__position">
            Card {Math.min(index, count - 1) + 1} of {count}
          </p>
        ) : null}
      </div>
      {count > 1 ? (
        <div className="card-carousel__paging">
          <Button variant="secondary" onClick={() => setIndex(previousCardIndex(index, count))} aria-label="Previous card">
            <ChevronLeft aria-hidden="true" size={18} /> Prev
          </Button>
          <Button variant="secondary" onClick={() => setIndex(nextCardIndex(index, count))} aria-label="Next card">
            Next <ChevronRight aria-hidden="true" size={18} />
          </Button>
        </div>
      ) : null}
      <div className="card-carousel__actions">
        <Link className={buttonClassName()} to={`/card-details/${encodeURIComponent(shown.id)}`} aria-label={`Card details: ${cardName(shown)}`}>
          Card details
        </Link>
        <Link className={buttonClassName({ variant: 'secondary' })} to="/new-card-form">
          <Plus aria-hidden="true" size={18} /> New Card
        </Link>
      </div>
    </section>
  );
}

/**
 * /card: the approved cards as pictures; the request form when the customer has none, and the
 * approval notice while a request waits (seed sections 2 and 4). An approval arrives as a live
 * notification, which refreshes the cards, so it appears without a reload.
 */
export default function CardPage() {
  const navigate = useNavigate();
  return (
    <div className="cards">
      <PageMeta title="Card" description="Your cards." noIndex />
      <header className="cards__header">
        <h1>Card</h1>
      </header>
      <CardScreenData>
        {({ cards, accounts, defaultName }) => {
          const approved = cards.filter(isApproved);
          const pending = awaitingApproval(cards);
          const lastRejected = cards.find((card) => card.status === 'rejected');
          if (approved.length > 0) {
            return (
              <>
                {pending ? (
                  <Notice tone="info">
                    <p>{cardMessages.pendingApproval}</p>
                  </Notice>
                ) : null}
                <CardCarousel cards={approved} />
              </>
            );
          }
          if (pending) return <ApprovalNotice message={cardMessages.pendingApproval} />;
          return (
            <section aria-labelledby="card-request-title" className="cards__request">
              <h2 id="card-request-title">Request a card</h2>
              {lastRejected?.rejectionReason ? (
                <Notice tone="info">
                  <p>Your last request was declined: {lastRejected.rejectionReason}</p>
                </Notice>
              ) : null}
              <CardRequestForm cards={cards} accounts={accounts} defaultName={defaultName} onRequested={() => void navigate('/card')} />
            </section>
          );
        }}
      </CardScreenData>
    </div>
  );
}
