import { useEffect, useState } from 'react';
import { FlaskConical } from 'lucide-react';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import './sandbox-banner.css';

const calendarDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * The bank's date when end of day ran ahead of the clock (the demo's time machine); null otherwise,
 * while loading, or when not asked. bank-date.ts is loaded here, after the first paint, in a chunk
 * of its own: the public pages' entry script stays within its budget (e2e/bundle-budget.e2e.ts).
 */
function useBankDateAhead(enabled: boolean): string | null {
  const [ahead, setAhead] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    void import('./bank-date.ts')
      .then(({ bankToday }) => bankToday())
      .then((today) => {
        if (current) setAhead(today?.aheadOfClock ? today.businessDate : null);
      });
    return () => {
      current = false;
    };
  }, [enabled]);
  return ahead;
}

/** On every page of a sandbox bank, so that a demo can never be mistaken for a real bank. */
export function SandboxBanner() {
  const { mode } = useBankIdentity();
  // In a sandbox, end of day may have been run ahead of today (issue 32 item 5): say which date the bank is on.
  const bankDateAhead = useBankDateAhead(mode === 'sandbox');
  if (mode !== 'sandbox') return null;
  return (
    // A landmark of its own, so that screen-reader users find it as easily as the eye does.
    <aside className="sandbox-banner" aria-label="Sandbox notice">
      <FlaskConical aria-hidden="true" size={16} />
      <p>{resultMessages.sandboxBanner}</p>
      {bankDateAhead ? (
        <p className="sandbox-banner__date">
          Bank date: <time dateTime={bankDateAhead}>{calendarDate.format(new Date(`${bankDateAhead}T00:00:00Z`))}</time> (the demo&rsquo;s time machine ran
          ahead of today)
        </p>
      ) : null}
    </aside>
  );
}
