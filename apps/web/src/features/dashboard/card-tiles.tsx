import { Link } from 'react-router';
import { CreditCard } from 'lucide-react';
import { cardNetworkLabels, cardTypeLabels, type Card } from '@strongroom/contracts/cards.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { buttonClassName } from '../../components/ui/button.tsx';
import { useCards } from '../../lib/api/get-cards.ts';
import { useDashboardSummary } from './api/get-dashboard.ts';
import './card-tiles.css';

const tileStatus: Partial<Record<Card['status'], string>> = { frozen: 'Frozen', pending_approval: 'Awaiting approval' };

/** The cards a customer can use or is waiting for; rejected and closed ones are history. */
function shownOnDashboard(card: Card): boolean {
  return card.status === 'active' || card.status === 'frozen' || card.status === 'pending_approval';
}

function CardTile({ card }: { card: Card }) {
  const status = tileStatus[card.status];
  const inner = (
    <>
      <span className="card-tile__type">{cardTypeLabels[card.type]}</span>
      {/* A card awaiting approval has no number yet. */}
      <span className="card-tile__number tabular">{card.last4 ? `•••• ${card.last4}` : 'Number on approval'}</span>
      <span className="card-tile__footer">
        <span>{cardNetworkLabels[card.network]}</span>
        {status ? <span className="card-tile__status">{status}</span> : <span className="tabular">{card.expiry}</span>}
      </span>
    </>
  );
  // A card awaiting approval has no details page yet: it leads to the card screen's notice instead.
  const to = card.status === 'pending_approval' ? '/card' : `/card-details/${encodeURIComponent(card.id)}`;
  return (
    <li>
      <Link
        to={to}
        className={`card-tile card-tile--${card.network}`}
        aria-label={`${cardTypeLabels[card.type]}${card.last4 ? ` ending ${card.last4}` : ''}${status ? `, ${status}` : ''}`}
      >
        {inner}
      </Link>
    </li>
  );
}

/** The dashboard's cards: small masked tiles leading to each card's page, and how many there are. */
export function CardTiles() {
  const cards = useCards();
  const summary = useDashboardSummary();
  const count = summary.data?.cardCount;
  return (
    <section aria-labelledby="cards-title" className="dashboard__section">
      <h2 id="cards-title" className="dashboard__section-title">
        {count !== undefined ? `Cards (${count})` : 'Cards'}
      </h2>
      {cards.isPending ? (
        <LoadingLine>Loading your cards…</LoadingLine>
      ) : cards.isError ? (
        <LoadFailed title="We could not load your cards" headingLevel={3} query={cards} />
      ) : cards.data.filter(shownOnDashboard).length === 0 ? (
        <EmptyState
          icon={<CreditCard aria-hidden="true" size={28} />}
          title="No cards yet"
          headingLevel={3}
          action={
            <Link className={buttonClassName({ variant: 'secondary' })} to="/card-form">
              Request a card
            </Link>
          }
        />
      ) : (
        <ul className="tile-grid" aria-label="Your cards">
          {cards.data.filter(shownOnDashboard).map((card) => (
            <CardTile key={card.id} card={card} />
          ))}
        </ul>
      )}
    </section>
  );
}
