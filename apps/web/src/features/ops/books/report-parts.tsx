import type { ReactNode } from 'react';
import { Download } from 'lucide-react';
import type { ReportName } from '@strongroom/contracts/books.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { reportFileUrl, type ReportQuery } from './books-api.ts';

/** A date input in the bank's days (YYYY-MM-DD), with the server's refusal of it (a day after the bank's date) under it. */
export function DayField({ label, value, onChange, error }: { label: string; value: string; onChange: (day: string) => void; error: string | undefined }) {
  return <TextField label={label} type="date" value={value} onChange={(event) => onChange(event.target.value)} error={error} required />;
}

/** The server's 400 message for one of the report's query fields (asOf, from, to), shown at its input. */
export function queryFieldError(error: Error | null, field: string): string | undefined {
  return isApiError(error) && error.code === 'validation_failed' ? error.fields[field] : undefined;
}

/** Whether a failure is a field's refusal (shown at the field) rather than the report's (shown in place of it). */
function isFieldRefusal(error: Error | null): boolean {
  return isApiError(error) && error.code === 'validation_failed' && Object.keys(error.fields).length > 0;
}

/** What a report query offers: a TanStack Query result fits. */
export interface ReportQueryState {
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** A report's states: a day still being typed, loading, failed with Try again, or its figures. */
export function ReportState({ query, enabled, title, children }: { query: ReportQueryState; enabled: boolean; title: string; children: () => ReactNode }) {
  if (!enabled) return <p>Choose the dates to see the {title.toLowerCase()}.</p>;
  if (query.isError && !isFieldRefusal(query.error)) return <LoadFailed title={`The ${title.toLowerCase()} could not be loaded`} query={query} />;
  if (query.isPending) return <LoadingLine>Loading the {title.toLowerCase()}…</LoadingLine>;
  return children();
}

/** Closed: final figures; open: the notice that they may still change. */
export function ClosedNotice({ closed, day }: { closed: boolean; day: string }) {
  if (closed) return <p className="books__closed">Closed day: these figures are final and never change.</p>;
  return (
    <Notice>
      <strong>Provisional: this day is still open.</strong> Postings booked on {day} may still change these figures until the day closes.
    </Notice>
  );
}

/** Whether the figures tie, in a word and a sentence (never by colour alone). */
export function TieCheck({ tied, yes, no }: { tied: boolean; yes: string; no: string }) {
  return (
    <p className="books__check">
      <Badge tone={tied ? 'success' : 'danger'} strong>
        {tied ? 'Balanced' : 'Not balanced'}
      </Badge>{' '}
      {tied ? yes : no}
    </p>
  );
}

const reportTitles: Record<ReportName, string> = {
  'trial-balance': 'Trial balance',
  'balance-sheet': 'Balance sheet',
  'income-statement': 'Income statement',
};

/** The report as CSV and PDF: plain links to the API, so the browser downloads them with the staff session's cookie. */
export function DownloadLinks({ name, query }: { name: ReportName; query: ReportQuery }) {
  return (
    <p className="books__downloads">
      {(['csv', 'pdf'] as const).map((format) => (
        <a key={format} href={reportFileUrl(name, query, format)} download className="books__download">
          <Download aria-hidden="true" size={16} />
          Download the {reportTitles[name].toLowerCase()} as {format.toUpperCase()}
        </a>
      ))}
    </p>
  );
}
