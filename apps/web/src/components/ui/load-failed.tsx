import { RefreshCw } from 'lucide-react';
import { Button } from './button.tsx';
import { EmptyState, type EmptyStateProps } from './empty-state.tsx';

/** What a failed query offers: its error and a way to ask again (a TanStack Query result fits). */
export interface RetryableQuery {
  error: Error | null;
  isFetching: boolean;
  refetch: () => unknown;
}

/** A list or figure that could not be loaded: what failed, the server's words, and 'Try again'. */
export function LoadFailed({ title, query, headingLevel }: { title: string; query: RetryableQuery; headingLevel?: EmptyStateProps['headingLevel'] }) {
  return (
    <EmptyState
      title={title}
      headingLevel={headingLevel}
      action={
        <Button variant="secondary" onClick={() => void query.refetch()} loading={query.isFetching}>
          <RefreshCw aria-hidden="true" size={18} />
          Try again
        </Button>
      }
    >
      {query.error ? <p>{query.error.message}</p> : null}
    </EmptyState>
  );
}
