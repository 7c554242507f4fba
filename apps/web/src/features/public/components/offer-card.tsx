import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Check } from 'lucide-react';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';

export interface OfferCardProps {
  name: string;
  /** The price as shown, "$6.95", and what it is: "monthly maintenance fee". */
  price: string;
  priceUnit: string;
  summary: string;
  points: readonly string[];
  /** Where the call to action leads and what it says; the offer's name follows it for screen readers. */
  actionTo: string;
  actionLabel: string;
  /** A picture above the name (the card pages' card art). */
  art?: ReactNode;
}

/** One offer of a `card-grid` comparison: its name, its price, what it gives and the way to take it. */
export function OfferCard({ name, price, priceUnit, summary, points, actionTo, actionLabel, art }: OfferCardProps) {
  return (
    <Card as="li" className="offer">
      {art}
      <h2>{name}</h2>
      <p className="offer__price">
        <span className="offer__amount">{price}</span>
        <span className="offer__unit">{priceUnit}</span>
      </p>
      <p>{summary}</p>
      <ul className="check-list">
        {points.map((point) => (
          <li key={point}>
            <Check aria-hidden="true" size={18} />
            {point}
          </li>
        ))}
      </ul>
      <Link to={actionTo} className={buttonClassName({ variant: 'primary', block: true }, 'offer__action')}>
        {actionLabel}
        <span className="visually-hidden">: {name}</span>
      </Link>
    </Card>
  );
}

/** A page's offers side by side, with the fine print beneath them. */
export function OfferComparison({ label, children, finePrint }: { label: string; children: ReactNode; finePrint: ReactNode }) {
  return (
    <section className="section" aria-label={label}>
      <div className="container">
        <ul className="card-grid">{children}</ul>
        {finePrint}
      </div>
    </section>
  );
}
