import { Navigate, Route, Routes } from 'react-router';
import { QueryProvider } from '../../app/query-provider.tsx';
import { PageLoading } from '../../app/page-loading.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useStaffMe } from './api/staff-session.ts';
import { consolePages } from './console-pages.tsx';
import { OpsLayout } from './shell/ops-layout.tsx';
import StaffLoginPage from './shell/staff-login-page.tsx';

/** Pages under /ops need a live staff session; without one, the staff sign-in page. */
function StaffArea() {
  const me = useStaffMe();
  if (me.isPending) return <PageLoading label="Checking your staff session" />;
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.code === 'unauthenticated') return <Navigate to="/ops/login" replace />;
    return <p role="alert">We could not check your staff session: {me.error.message}</p>;
  }
  return <OpsLayout staff={me.data.staff} />;
}

/**
 * The back office at /ops (PRODUCT.md D16): one lazy chunk, so the public pages and the customer
 * area never load it. Routes under it come from console-pages.tsx.
 */
export default function OpsConsole() {
  return (
    <QueryProvider>
      <Routes>
        <Route path="login" element={<StaffLoginPage />} />
        <Route element={<StaffArea />}>
          {consolePages.map(({ path, Page }) =>
            path === '' ? <Route key="index" index element={<Page />} /> : <Route key={path} path={path} element={<Page />} />,
          )}
          <Route path="*" element={<p>This back-office page does not exist.</p>} />
        </Route>
      </Routes>
    </QueryProvider>
  );
}
