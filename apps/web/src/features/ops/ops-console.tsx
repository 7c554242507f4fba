import { useEffect, useState } from 'react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { QueryProvider } from '../../app/query-provider.tsx';
import { PageLoading } from '../../app/page-loading.tsx';
import { ApiError, isApiError } from '../../lib/api-client.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useStaffMe } from './api/staff-session.ts';
import { staffQueryKeys } from './api/staff-query-keys.ts';
import { consolePages, type ConsolePage } from './console-pages.tsx';
import { OpsLayout } from './shell/ops-layout.tsx';
import StaffLoginPage from './shell/staff-login-page.tsx';

/** What the sign-in page reads: where to go back to, and whether a session has just ended. */
export interface StaffLoginState {
  from?: string;
  sessionEnded?: boolean;
}

const { sessionIdleTimeoutMs } = businessConstants;

/**
 * A staff session ends after 15 minutes idle (or 8 h): the next API call answers 401. Any query or
 * mutation of the console that does so sends the staff member to sign in again, then back here. The
 * console does not wait for that call: the server counts idle time from the last request it
 * answered, so 15 minutes after the console's last answer the session is over, and the sign-in page
 * says so at that moment (a back office left open on a desk does not keep showing customers' data).
 * Measured with the clock, not by counting, so a laptop that slept wakes up on the sign-in page.
 */
function useSessionEnded(): boolean {
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    let lastAnswerMs = Date.now();
    let timer: number | undefined;
    const check = () => {
      const idleMs = Date.now() - lastAnswerMs;
      if (idleMs >= sessionIdleTimeoutMs) setEnded(true);
      else timer = window.setTimeout(check, sessionIdleTimeoutMs - idleMs);
    };
    timer = window.setTimeout(check, sessionIdleTimeoutMs);
    const observe = (action: { type: string; error?: unknown }) => {
      if (action.type === 'success') lastAnswerMs = Date.now();
      // Only a session this page saw alive has ended; a first visit without one simply signs in.
      if (
        action.type === 'error' &&
        isApiError(action.error) &&
        action.error.code === 'unauthenticated' &&
        queryClient.getQueryData(staffQueryKeys.me) !== undefined
      )
        setEnded(true);
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated') observe(event.action);
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated') observe(event.action);
    });
    return () => {
      window.clearTimeout(timer);
      stopQueries();
      stopMutations();
    };
  }, []);
  return ended;
}

/** Pages under /ops need a live staff session; without one, the staff sign-in page. */
function StaffArea() {
  const me = useStaffMe();
  const location = useLocation();
  const sessionEnded = useSessionEnded();
  const from = `${location.pathname}${location.search}`;
  // The sign-in page's success removes every staff query, so no page of this session survives it.
  if (sessionEnded) return <Navigate to="/ops/login" replace state={{ from, sessionEnded: true } satisfies StaffLoginState} />;
  if (me.isPending) return <PageLoading label="Checking your staff session" />;
  if (me.isError) {
    if (me.error instanceof ApiError && me.error.code === 'unauthenticated')
      return <Navigate to="/ops/login" replace state={{ from } satisfies StaffLoginState} />;
    return <p role="alert">We could not check your staff session: {me.error.message}</p>;
  }
  return <OpsLayout staff={me.data.staff} />;
}

/**
 * A page whose permission this staff member's role lacks, opened by its address: its title and
 * why, and none of its forms or requests (the server refuses them anyway, each refusal audited).
 */
function PermittedPage({ page }: { page: ConsolePage }) {
  const staff = useStaffMe().data?.staff;
  const { Page, label, permission } = page;
  if (permission && staff && !staff.permissions.includes(permission)) {
    return (
      <section aria-labelledby="not-permitted-title">
        <h1 id="not-permitted-title">{label}</h1>
        <p>Your role ({staff.role}) cannot use this page: ask an administrator if you need it.</p>
      </section>
    );
  }
  return <Page />;
}

/**
 * The back office at /ops (docs/product.md D16): one lazy chunk, so the public pages and the customer
 * area never load it. Routes under it come from console-pages.tsx.
 */
export default function OpsConsole() {
  return (
    <QueryProvider>
      <Routes>
        <Route path="login" element={<StaffLoginPage />} />
        <Route element={<StaffArea />}>
          {consolePages.map((page) => {
            const { path, label } = page;
            // Every console page has a title of its own (screen readers announce it; axe requires it).
            const element = (
              <>
                <PageMeta title={`${label} · Back office`} description={`The back office: ${label}.`} noIndex />
                <PermittedPage page={page} />
              </>
            );
            return path === '' ? <Route key="index" index element={element} /> : <Route key={path} path={path} element={element} />;
          })}
          <Route path="*" element={<p>This back-office page does not exist.</p>} />
        </Route>
      </Routes>
    </QueryProvider>
  );
}
