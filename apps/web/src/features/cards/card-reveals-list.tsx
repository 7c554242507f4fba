import { Eye } from 'lucide-react';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { useCardReveals } from './api/card-activity.ts';

/** "Card number viewed": every reveal, when and on which device, so a customer sees one they did not make. */
export function CardRevealsList({ cardId }: { cardId: string }) {
  const reveals = useCardReveals(cardId);
  if (reveals.isPending) {
    return (
      <p aria-busy="true">
        <Spinner size="sm" /> Loading…
      </p>
    );
  }
  if (reveals.isError) return <LoadFailed title="We could not load when the number was viewed" headingLevel={3} query={reveals} />;
  if (reveals.data.length === 0) {
    return (
      <EmptyState icon={<Eye aria-hidden="true" size={28} />} title="The card number has not been viewed" headingLevel={3}>
        <p>Each time the full number is shown, it is listed here with the device.</p>
      </EmptyState>
    );
  }
  return (
    <ul className="card-reveals" aria-label="Card number viewed">
      {reveals.data.map((reveal) => (
        <li key={reveal.at} className="card-reveals__item">
          <time dateTime={reveal.at}>{formatDateTime(reveal.at)}</time>
          <span className="card-reveals__device">
            {reveal.device}
            {reveal.ip ? ` · ${reveal.ip}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
