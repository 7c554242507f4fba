import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import {
  ArrowDownToLine,
  ArrowLeftRight,
  Compass,
  CreditCard,
  Gift,
  History,
  House,
  Landmark,
  LifeBuoy,
  LogOut,
  Menu,
  Plus,
  ReceiptText,
  Settings,
  User,
  Users,
  X,
} from 'lucide-react';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { useLogout } from '../../lib/api/logout.ts';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { SessionIdleWatch } from '../../features/auth/session/session-idle-watch.tsx';
import { useMe } from '../../lib/api/get-me.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { useLiveEvents } from '../../lib/live-events.ts';
import { AppErrorBoundary } from '../error-boundary.tsx';
import { PageLoading } from '../page-loading.tsx';
import { BrandMark } from './brand-mark.tsx';
import { FrozenAccountBanner } from './frozen-account-banner.tsx';
import './menu-toggle.css';
import './bank-layout.css';

const menuLinks = [
  { to: '/dashboard', label: 'Home', Icon: House },
  { to: '/profile', label: 'Profile', Icon: User },
  { to: '/deposit', label: 'Deposit', Icon: ArrowDownToLine },
  { to: '/billpay', label: 'Bill Pay', Icon: ReceiptText },
  { to: '/transfer', label: 'Transfer', Icon: ArrowLeftRight },
  // Not in the seed's header menu, whose only way to payees is the phone tab bar's plus button;
  // without it a desktop customer could not reach their saved payees.
  { to: '/beneficiaries', label: 'Beneficiaries', Icon: Users },
  { to: '/card', label: 'Card', Icon: CreditCard },
  { to: '/loan', label: 'Loan', Icon: Landmark },
  { to: '/transaction-history', label: 'History', Icon: History },
  { to: '/settings', label: 'Settings', Icon: Settings },
  // Not in the seed's menu either: Invite and Help were reachable only by typing their address.
  { to: '/invite', label: 'Invite', Icon: Gift },
  { to: '/help', label: 'Help', Icon: LifeBuoy },
] as const;

/** The customer's photo (or initials) in the header, to their profile: a changed photo shows here at once. */
function ProfileAvatar() {
  const user = useMe().data?.user;
  if (!user) return null;
  return (
    <Link to="/profile" className="bank-header__avatar" aria-label="Open your profile">
      {user.profilePhotoUrl ? (
        <img src={user.profilePhotoUrl} alt="" width={36} height={36} />
      ) : (
        <span aria-hidden="true">
          {user.firstName.slice(0, 1)}
          {user.lastName.slice(0, 1)}
        </span>
      )}
    </Link>
  );
}

function menuLinkClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'bank-nav__link bank-nav__link--active' : 'bank-nav__link';
}

function tabClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'tab-bar__link tab-bar__link--active' : 'tab-bar__link';
}

/**
 * The signed-in frame: the header with the notifications bell, the menu (a sidebar on wide
 * screens, a drawer behind "Menu" on narrow ones) and, on phones, the bottom tab bar of the seed:
 * Home, Deposit, a plus to beneficiaries, Transfer and Explore. It also keeps the screens live
 * (server-sent events) for as long as the customer is signed in.
 */
export function BankLayout() {
  const { name } = useBankIdentity();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const logout = useLogout();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  useLiveEvents();

  useEffect(() => setMenuOpen(false), [pathname]);

  // Escape closes the phone menu wherever the focus is (the Menu button too), not only inside it.
  useEffect(() => {
    if (!menuOpen) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setMenuOpen(false);
      menuButtonRef.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  function signOut() {
    logout.mutate(undefined, { onSuccess: () => navigate('/login') });
  }

  return (
    <div className="bank-layout">
      <header className="bank-header">
        <Link to="/dashboard" className="bank-header__brand">
          <BrandMark size={28} />
          <span>{name}</span>
        </Link>
        <div className="bank-header__actions">
          <NotificationBell />
          <ProfileAvatar />
          <button
            ref={menuButtonRef}
            type="button"
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="bank-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
            <span>Menu</span>
          </button>
        </div>
      </header>

      <nav
        id="bank-menu"
        className={menuOpen ? 'bank-nav bank-nav--open' : 'bank-nav'}
        aria-label="Online banking"
        onClick={(event) => {
          // Choosing a link closes the menu, also the link of the page already shown (the address does not change then).
          if (event.target instanceof Element && event.target.closest('a')) setMenuOpen(false);
        }}
      >
        <ul className="bank-nav__list">
          {menuLinks.map(({ to, label, Icon }) => (
            <li key={to}>
              <NavLink to={to} className={menuLinkClass}>
                <Icon aria-hidden="true" size={20} />
                {label}
              </NavLink>
            </li>
          ))}
          <li>
            <button type="button" className="bank-nav__link" onClick={signOut} disabled={logout.isPending}>
              <LogOut aria-hidden="true" size={20} />
              {logout.isPending ? 'Signing out…' : 'Logout'}
            </button>
          </li>
        </ul>
      </nav>

      <main id="main" className="bank-main" tabIndex={-1}>
        <FrozenAccountBanner />
        <AppErrorBoundary>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </AppErrorBoundary>
      </main>

      <nav className="tab-bar" aria-label="Shortcuts">
        <NavLink to="/dashboard" className={tabClass}>
          <House aria-hidden="true" size={22} />
          Home
        </NavLink>
        <NavLink to="/deposit" className={tabClass}>
          <ArrowDownToLine aria-hidden="true" size={22} />
          Deposit
        </NavLink>
        <NavLink to="/beneficiaries" className="tab-bar__plus" aria-label="Beneficiaries">
          <Plus aria-hidden="true" size={26} />
        </NavLink>
        <NavLink to="/transfer" className={tabClass}>
          <ArrowLeftRight aria-hidden="true" size={22} />
          Transfer
        </NavLink>
        <NavLink to="/settings" className={tabClass}>
          <Compass aria-hidden="true" size={22} />
          Explore
        </NavLink>
      </nav>

      <SessionIdleWatch />
      <ErrorDialog title="Sign-out failed" message={logout.error?.message} onClose={() => logout.reset()} />
    </div>
  );
}
