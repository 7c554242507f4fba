import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { LoadFailed, type RetryableQuery } from '../../components/ui/load-failed.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';

/** What a paged staff queue offers (a TanStack infinite query fits). */
export interface PagedQuery extends RetryableQuery {
  isPending: boolean;
  isError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export interface QueueContentProps {
  query: PagedQuery;
  /** "We could not load the card requests". */
  failedTitle: string;
  isEmpty: boolean;
  empty: ReactNode;
  /** The rows, drawn once the first page is there. */
  children: () => ReactNode;
}

/** A staff queue's states: loading, failed with Try again, empty, or its rows with "Show more" while pages remain. */
export function QueueContent({ query, failedTitle, isEmpty, empty, children }: QueueContentProps) {
  if (query.isPending) return <Spinner />;
  if (query.isError) return <LoadFailed title={failedTitle} query={query} />;
  if (isEmpty) return empty;
  return (
    <>
      {children()}
      {query.hasNextPage ? (
        <Button variant="secondary" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
          Show more
        </Button>
      ) : null}
    </>
  );
}
