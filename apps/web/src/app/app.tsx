import { BrowserRouter } from 'react-router';
import { BankIdentityContext, type BankIdentity } from '../lib/bank-identity.ts';
import { ToastProvider } from '../components/ui/toast.tsx';
import { AppRoutes } from './app-routes.tsx';
import { AppErrorBoundary } from './error-boundary.tsx';
import { SandboxBanner } from './layouts/sandbox-banner.tsx';
import { ScrollReset } from './scroll-reset.tsx';

/**
 * The whole app. The router is React Router's declarative mode: the data router would add about
 * 16 KB gzip to every public page for loaders this app does not use (data is fetched with TanStack
 * Query in the lazy customer area), and the public pages have a 110 KB budget.
 */
export function App({ bankIdentity }: { bankIdentity: BankIdentity }) {
  return (
    <BrowserRouter>
      <AppTree bankIdentity={bankIdentity} />
    </BrowserRouter>
  );
}

/** Everything inside the router; the build's pre-rendering puts it in a static router instead. */
export function AppTree({ bankIdentity }: { bankIdentity: BankIdentity }) {
  return (
    <BankIdentityContext value={bankIdentity}>
      <ToastProvider>
        <ScrollReset />
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SandboxBanner />
        <AppErrorBoundary>
          <AppRoutes />
        </AppErrorBoundary>
      </ToastProvider>
    </BankIdentityContext>
  );
}
