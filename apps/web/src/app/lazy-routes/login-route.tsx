import LoginPage from '../../features/auth/login-page.tsx';
import { QueryProvider } from '../query-provider.tsx';

/** /login, loaded on demand: the sign-in form brings react-hook-form, zod and TanStack Query with it. */
export default function LoginRoute() {
  return (
    <QueryProvider>
      <LoginPage />
    </QueryProvider>
  );
}
