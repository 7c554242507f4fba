import { BankLayout } from '../layouts/bank-layout.tsx';
import { QueryProvider } from '../query-provider.tsx';
import { RouteGuard } from '../route-guard.tsx';

/** Everything behind sign-in: one lazy chunk, so public visitors never download it. Onboarding comes first. */
export default function CustomerArea() {
  return (
    <QueryProvider>
      <RouteGuard steps={['dashboard']}>
        <BankLayout />
      </RouteGuard>
    </QueryProvider>
  );
}
