import type { DisputeEvent } from '@strongroom/contracts/disputes.ts';
import { formatDateTime, machineDateTime } from '../../lib/dates.ts';
import { eventWords } from './dispute-words.ts';

/** What happened to the report, oldest first. */
export function DisputeTimeline({ events }: { events: readonly DisputeEvent[] }) {
  const ordered = [...events].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <section aria-labelledby="dispute-timeline-title" className="dispute-section">
      <h2 id="dispute-timeline-title">What has happened</h2>
      <ol className="dispute-timeline">
        {ordered.map((event, index) => (
          <li key={`${event.kind}-${event.at}-${index}`} className="dispute-timeline__item">
            <span className="dispute-timeline__what">{eventWords[event.kind]}</span>
            <time className="dispute-timeline__when" dateTime={machineDateTime(event.at)}>
              {formatDateTime(event.at)}
            </time>
            {event.text ? <p className="dispute-timeline__text">{event.text}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The bank's question still waiting for an answer: the last event is a request for information. */
export function openQuestion(events: readonly DisputeEvent[]): DisputeEvent | null {
  let last: DisputeEvent | null = null;
  for (const event of events) if (!last || Date.parse(event.at) >= Date.parse(last.at)) last = event;
  return last?.kind === 'information_requested' ? last : null;
}
