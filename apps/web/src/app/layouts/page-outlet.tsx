import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { AppErrorBoundary } from '../error-boundary.tsx';
import { PageLoading } from '../page-loading.tsx';

/** Where a layout shows its page: a spinner while the page's code loads, a recovery screen if it throws. */
export function PageOutlet({ children }: { children?: ReactNode }) {
  return (
    <AppErrorBoundary>
      <Suspense fallback={<PageLoading />}>{children ?? <Outlet />}</Suspense>
    </AppErrorBoundary>
  );
}
