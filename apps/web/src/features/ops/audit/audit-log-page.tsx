import { useState, type FormEvent } from 'react';
import { Download, Search } from 'lucide-react';
import { auditFilterSchema, type AuditEntryView } from '@strongroom/contracts/staff-audit.ts';
import { Button, buttonClassName } from '../../../components/ui/button.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { statusWords } from '../status-words.ts';
import { auditCsvUrl, useAuditLog, type AuditFilterForm } from './audit-log-api.ts';
import './audit-log-page.css';

const emptyFilter: AuditFilterForm = { actor: '', action: '', subject: '', from: '', to: '' };

const isFilterField = (name: PropertyKey | undefined): name is keyof AuditFilterForm => typeof name === 'string' && name in emptyFilter;

function detailsText(details: AuditEntryView['details']): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ');
}

/** A person in words with their id beneath, smaller, for copying into a filter. */
function Party({ name, id }: { name: string | null | undefined; id: string }) {
  if (!name) return id;
  return (
    <span className="audit-party">
      <span>{name}</span>
      <small className="audit-party__id">{id}</small>
    </span>
  );
}

const columns: readonly TableColumn<AuditEntryView>[] = [
  { key: 'at', header: 'When (UTC)', cell: (entry) => <time dateTime={entry.at}>{entry.at.replace('T', ' ').slice(0, 19)}</time> },
  { key: 'actor', header: 'Actor', cell: (entry) => <Party name={entry.actorName} id={`${entry.actorType}${entry.actorId ? ` ${entry.actorId}` : ''}`} /> },
  { key: 'action', header: 'Action', cell: (entry) => <code>{entry.action}</code> },
  { key: 'subject', header: 'Subject', cell: (entry) => (entry.subject ? <Party name={entry.subjectName} id={entry.subject} /> : '') },
  { key: 'outcome', header: 'Outcome', cell: (entry) => <span className={`audit-outcome audit-outcome--${entry.outcome}`}>{statusWords[entry.outcome]}</span> },
  { key: 'ip', header: 'IP', cell: (entry) => entry.ip ?? '' },
  { key: 'details', header: 'Details', cell: (entry) => <span className="audit-details">{detailsText(entry.details)}</span> },
];

/** `/ops/audit` (`audit.read`): the append-only, hash-chained audit log, filtered, newest first. */
export default function AuditLogPage() {
  const [draft, setDraft] = useState<AuditFilterForm>(emptyFilter);
  const [filter, setFilter] = useState<AuditFilterForm>(emptyFilter);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof AuditFilterForm, string>>>({});
  const log = useAuditLog(filter);
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];

  const field = (name: keyof AuditFilterForm) => ({
    name,
    value: draft[name],
    error: fieldErrors[name],
    onChange: (event: { target: { value: string } }) => setDraft((previous) => ({ ...previous, [name]: event.target.value })),
  });
  // The API's own schema checks the form first, so a filter it would refuse never leaves the page.
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const checked = auditFilterSchema.safeParse(draft);
    const errors: Partial<Record<keyof AuditFilterForm, string>> = {};
    for (const issue of checked.error?.issues ?? []) {
      const [name] = issue.path;
      if (isFilterField(name)) errors[name] ??= issue.message;
    }
    setFieldErrors(errors);
    if (checked.success) setFilter({ ...draft });
  };

  return (
    <section aria-labelledby="audit-title" className="ops-page">
      <h1 id="audit-title">Audit log</h1>
      <form className="audit-filters" onSubmit={apply} role="search" aria-label="Filter the audit log">
        <TextField label="Actor" hint="Staff id or email, or customer id" {...field('actor')} />
        <TextField label="Action" hint="Exact, or a prefix ending in a dot" {...field('action')} />
        <TextField label="Subject" {...field('subject')} />
        <TextField label="From" type="date" {...field('from')} />
        <TextField label="To" type="date" {...field('to')} />
        <div className="audit-filters__actions">
          <Button type="submit">
            <Search aria-hidden="true" size={18} />
            Filter
          </Button>
          <a className={buttonClassName({ variant: 'secondary' })} href={auditCsvUrl(filter)} download>
            <Download aria-hidden="true" size={18} />
            Export CSV
          </a>
        </div>
      </form>
      {log.isPending ? (
        <p>
          <Spinner size="sm" /> Loading the audit log
        </p>
      ) : null}
      {log.isError ? <LoadFailed title="The audit log could not be loaded" query={log} /> : null}
      {log.isSuccess ? (
        <div className="audit-table">
          <Table
            caption="Audit entries, newest first"
            captionHidden
            columns={columns}
            rows={entries}
            rowKey={(entry) => entry.id}
            empty="No entry matches this filter."
          />
        </div>
      ) : null}
      {log.hasNextPage ? (
        <Button variant="secondary" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
          Load more
        </Button>
      ) : null}
    </section>
  );
}
