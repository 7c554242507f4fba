import { Outlet } from 'react-router';
import { QueryProvider } from '../query-provider.tsx';

/**
 * Sign-up, email verification and password recovery: public pages that talk to the API, loaded on
 * demand with TanStack Query, react-hook-form and zod, like /login.
 */
export default function AccountAccessArea() {
  return (
    <QueryProvider>
      <Outlet />
    </QueryProvider>
  );
}
