import { Suspense } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { LogOut } from 'lucide-react';
import type { StaffMember } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { AppErrorBoundary } from '../../../app/error-boundary.tsx';
import { PageLoading } from '../../../app/page-loading.tsx';
import { useStaffLogout } from '../api/staff-session.ts';
import { consolePages, type ConsolePage } from '../console-pages.tsx';
import './ops-layout.css';

function NavCount({ useCount }: { useCount: () => number | undefined }) {
  const count = useCount();
  return count === undefined ? null : (
    <span className="ops-nav__count" aria-label={`${count} waiting`}>
      {count}
    </span>
  );
}

/** What the layout hands its pages: the queues (pages with a count) this role may work on. */
export interface OpsOutletContext {
  queues: (ConsolePage & { useCount: () => number | undefined })[];
}

/** The console's frame: its own header and a navigation of the pages this staff member's role may use. */
export function OpsLayout({ staff }: { staff: StaffMember }) {
  const { name } = useBankIdentity();
  const logout = useStaffLogout();
  const navigate = useNavigate();
  const allowed = consolePages.filter((page) => !page.permission || staff.permissions.includes(page.permission));
  const pages = allowed.filter((page) => page.inNavigation);
  const queues = allowed.filter((page): page is OpsOutletContext['queues'][number] => page.useCount !== undefined);
  return (
    <div className="ops-layout">
      <header className="ops-header">
        <span className="ops-header__brand">{name} · Back office</span>
        <span className="ops-header__who">
          {staff.email} ({staff.role})
        </span>
        <Button variant="secondary" size="sm" onClick={() => logout.mutate(undefined, { onSettled: () => navigate('/ops/login') })}>
          <LogOut aria-hidden="true" size={16} />
          Sign out
        </Button>
      </header>
      <nav className="ops-nav" aria-label="Back office">
        <ul>
          {pages.map((page) => (
            <li key={page.path}>
              <NavLink
                to={`/ops/${page.path}`}
                // Exact when another entry lies under it (Books and its Adjusting entries), so one entry only reads as current.
                end={page.path === '' || pages.some((other) => other.path.startsWith(`${page.path}/`))}
                className={({ isActive }) => (isActive ? 'ops-nav__link ops-nav__link--active' : 'ops-nav__link')}
              >
                {page.label}
                {page.useCount ? <NavCount useCount={page.useCount} /> : null}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="ops-main" id="main" tabIndex={-1}>
        <AppErrorBoundary>
          <Suspense fallback={<PageLoading label="Loading" />}>
            <Outlet context={{ queues } satisfies OpsOutletContext} />
          </Suspense>
        </AppErrorBoundary>
      </main>
    </div>
  );
}
