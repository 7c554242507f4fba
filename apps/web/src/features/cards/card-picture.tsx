import type { Card, CardRevealResponse } from '@strongroom/contracts/cards.ts';
import { cardTypeLabels } from '@strongroom/contracts/cards.ts';
import { cardStatusLabels, groupedNumber, maskedNumber } from './card-words.ts';
import { NetworkLogo } from './network-logo.tsx';
import './card-picture.css';

export interface CardPictureProps {
  card: Card;
  /** The number, CVV and expiry while they are revealed; masked otherwise. */
  revealed?: CardRevealResponse | null;
  /** Shows the CVV's place (masked until revealed), on the card's own page. */
  showCvv?: boolean;
  size?: 'lg' | 'sm';
}

/**
 * A card as a picture: number (masked), expiry, name, type and the network's mark, with the
 * "Demo card" label every card of this sandbox bank carries (its numbers are test numbers).
 */
export function CardPicture({ card, revealed = null, showCvv = false, size = 'lg' }: CardPictureProps) {
  const frozen = card.status === 'frozen';
  return (
    <figure className={`card-picture card-picture--${size} card-picture--${card.network}${frozen ? ' card-picture--frozen' : ''}`}>
      <div className="card-picture__top">
        <span className="card-picture__type">{cardTypeLabels[card.type]}</span>
        <span className="card-picture__demo">Demo card</span>
      </div>
      <p className="card-picture__number tabular" aria-label={revealed ? `Card number ${revealed.number}` : `Card number ending ${card.last4}`}>
        {revealed ? groupedNumber(revealed.number) : maskedNumber(card.last4)}
      </p>
      <div className="card-picture__meta">
        <div>
          <span className="card-picture__caption">Expires</span>
          <span className="tabular">{revealed?.expiry ?? card.expiry}</span>
        </div>
        {showCvv ? (
          <div>
            <span className="card-picture__caption">CVV</span>
            <span className="tabular" aria-label={revealed ? `CVV ${revealed.cvv}` : 'CVV hidden'}>
              {revealed?.cvv ?? '•••'}
            </span>
          </div>
        ) : null}
        {card.status !== 'active' ? <span className="card-picture__status">{cardStatusLabels[card.status]}</span> : null}
      </div>
      <figcaption className="card-picture__bottom">
        <span className="card-picture__name">{card.nameOnCard}</span>
        <NetworkLogo network={card.network} height={size === 'lg' ? 30 : 20} />
      </figcaption>
    </figure>
  );
}
