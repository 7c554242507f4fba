import type { FormEvent } from 'react';
import { RotateCcw } from 'lucide-react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { transactionCategorySchema } from '@strongroom/contracts/transactions.ts';
import { Button } from '../../components/ui/button.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import type { TransactionFilters } from './api/get-transactions.ts';
import { isDateRangeInOrder, type HistoryFilterState } from './use-history-filters.ts';
import './history-filters.css';

/** The API's limit on the search text (transactionListQuerySchema). */
const searchMaxLength = 100;

const categoryOptions = transactionCategorySchema.options.map((category) => ({ value: category, label: category }));

function accountLabel(account: Account): string {
  return `${account.name} (${account.number})`;
}

function categoryOf(value: string): TransactionFilters['category'] {
  const parsed = transactionCategorySchema.safeParse(value);
  return parsed.success ? parsed.data : '';
}

/** Search over descriptions and parties (who a line was with), account, category and date range; each change asks for page one again. */
export function HistoryFilters({ state, accounts }: { state: HistoryFilterState; accounts: readonly Account[] }) {
  const { filters, setFilter } = state;

  function searchNow(event: FormEvent) {
    event.preventDefault();
    state.searchNow();
  }

  return (
    <form className="history-filters" role="search" aria-label="Filter transactions" onSubmit={searchNow}>
      <TextField
        className="history-filters__search"
        label="Search descriptions"
        hint="Finds a word in a line’s description or in the name of who it was with."
        type="search"
        value={state.searchText}
        maxLength={searchMaxLength}
        onChange={(event) => state.setSearchText(event.target.value)}
      />
      <SelectField
        label="Account"
        placeholder="All accounts"
        options={accounts.map((account) => ({ value: account.id, label: accountLabel(account) }))}
        value={filters.accountId}
        onChange={(event) => setFilter('accountId', event.target.value)}
      />
      <SelectField
        label="Category"
        placeholder="All categories"
        options={categoryOptions}
        value={filters.category}
        onChange={(event) => setFilter('category', categoryOf(event.target.value))}
      />
      <TextField
        className="history-filters__date"
        label="From"
        type="date"
        value={filters.from}
        max={filters.to || undefined}
        onChange={(event) => setFilter('from', event.target.value)}
      />
      <TextField
        className="history-filters__date"
        label="To"
        type="date"
        value={filters.to}
        min={filters.from || undefined}
        error={isDateRangeInOrder(filters) ? undefined : 'The end date must be on or after the start date'}
        onChange={(event) => setFilter('to', event.target.value)}
      />
      <div className="history-filters__actions">
        {/* Never disabled: a button that turns off under the pointer that pressed it loses the keyboard focus. */}
        <Button variant="secondary" onClick={state.reset}>
          <RotateCcw aria-hidden="true" size={18} />
          Reset filters
        </Button>
      </div>
    </form>
  );
}
