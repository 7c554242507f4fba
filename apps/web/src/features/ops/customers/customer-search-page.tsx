import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { customerSearchLimits, type CustomerSummary } from '@strongroom/contracts/staff-customers.ts';
import { Button } from '../../../components/ui/button.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { useCustomerSearch } from './api/search-customers.ts';
import { IdentityBadge, FrozenBadge } from './customer-badges.tsx';
import './customers.css';

const columns: readonly TableColumn<CustomerSummary>[] = [
  {
    key: 'name',
    header: 'Customer',
    cell: (row) => (
      <Link to={`/ops/customers/${row.id}`}>
        {row.firstName} {row.lastName}
      </Link>
    ),
  },
  { key: 'email', header: 'Email', cell: (row) => row.email },
  { key: 'identity', header: 'Identity', cell: (row) => <IdentityBadge status={row.identityStatus} /> },
  { key: 'frozen', header: 'Money', cell: (row) => <FrozenBadge frozen={row.frozen} /> },
  { key: 'created', header: 'Customer since', cell: (row) => <time dateTime={row.createdAt}>{formatDate(row.createdAt)}</time> },
];

/** `/ops/customers`: find a customer by name, email or account number; without a search, the newest. */
export default function CustomerSearchPage() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const search = useCustomerSearch(q);

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (trimmed.length > 0 && trimmed.length < customerSearchLimits.minLength) {
      setTooShort(true);
      return;
    }
    setTooShort(false);
    setQ(trimmed);
  }

  return (
    <section aria-labelledby="customer-search-title" className="customer-care">
      <h1 id="customer-search-title">Customers</h1>
      <form role="search" className="customer-care__search" onSubmit={submit}>
        <TextField
          label="Name, email or account number"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={customerSearchLimits.maxLength}
          error={tooShort ? `Type at least ${customerSearchLimits.minLength} characters` : undefined}
          autoFocus
        />
        <Button type="submit">Search</Button>
      </form>
      {search.isPending ? (
        <Spinner />
      ) : search.isError ? (
        <LoadFailed title="We could not search customers" query={search} />
      ) : (
        <>
          {search.isFetching ? <Notice role="status">Searching…</Notice> : null}
          <Table
            caption={q ? `Customers matching “${q}”` : 'Newest customers'}
            columns={columns}
            rows={search.data.items}
            rowKey={(row) => row.id}
            empty={q ? 'No customer matches this search.' : 'There are no customers yet.'}
          />
          {search.data.items.length === customerSearchLimits.maxResults ? (
            <p className="customer-care__hint">Showing the first {customerSearchLimits.maxResults}: narrow the search to find others.</p>
          ) : null}
        </>
      )}
    </section>
  );
}
