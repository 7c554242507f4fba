import { FileDown } from 'lucide-react';
import type { DisputeLetter } from '@strongroom/contracts/disputes.ts';
import { formatDate } from '../../lib/dates.ts';
import { disputeLetterUrl } from './api/disputes.ts';
import { letterWords } from './dispute-words.ts';

/** The bank's letters about the report, each a PDF to keep. */
export function DisputeLetters({ disputeId, letters }: { disputeId: string; letters: readonly DisputeLetter[] }) {
  return (
    <section aria-labelledby="dispute-letters-title" className="dispute-section">
      <h2 id="dispute-letters-title">Letters</h2>
      {letters.length === 0 ? (
        <p className="dispute-section__empty">No letters yet.</p>
      ) : (
        <ul className="dispute-files">
          {letters.map((letter) => (
            <li key={letter.id} className="dispute-files__item">
              <a href={disputeLetterUrl(disputeId, letter.id)} download className="dispute-files__link">
                <FileDown aria-hidden="true" size={18} />
                {letterWords[letter.kind]}
                <span className="visually-hidden"> (PDF)</span>
              </a>
              <span className="dispute-files__size">{formatDate(letter.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
