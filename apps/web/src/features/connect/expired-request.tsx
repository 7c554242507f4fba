import { EmptyState } from '../../components/ui/empty-state.tsx';

/** A request that is unknown, answered already or expired: the app has to ask again. */
export function ExpiredRequest() {
  return (
    <EmptyState title="This request is no longer open" headingLevel={1}>
      <p>This request has expired or was already answered. Go back to the app and start again.</p>
    </EmptyState>
  );
}
