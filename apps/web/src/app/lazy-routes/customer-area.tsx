import { BankLayout } from '../layouts/bank-layout.tsx';
import { QueryProvider } from '../query-provider.tsx';
import { RouteGuard } from '../route-guard.tsx';

/**
 * Everything behind sign-in: one lazy chunk, so public visitors never download it. Onboarding comes
 * first. `openToVisitors`: a page anyone may read (/privacy), shown in the public frame to a visitor.
 */
export default function CustomerArea({ openToVisitors = false }: { openToVisitors?: boolean }) {
  return (
    <QueryProvider>
      <RouteGuard steps={['dashboard']} openToVisitors={openToVisitors}>
        <BankLayout />
      </RouteGuard>
    </QueryProvider>
  );
}
