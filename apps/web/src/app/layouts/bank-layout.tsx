import { useEffect, useRef, useState, type Ref } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import {
  ArrowDownToLine,
  ArrowLeftRight,
  CalendarClock,
  Compass,
  CreditCard,
  Gift,
  History,
  House,
  Landmark,
  LifeBuoy,
  LogOut,
  Plus,
  ReceiptText,
  Settings,
  User,
  Users,
} from 'lucide-react';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { SessionIdleWatch } from '../../features/auth/session/session-idle-watch.tsx';
import { useMe } from '../../lib/api/get-me.ts';
import { useLiveEvents } from '../../lib/live-events.ts';
import { PageOutlet } from './page-outlet.tsx';
import { BrandLink } from './brand-mark.tsx';
import { useSignOut } from './use-sign-out.tsx';
import { FrozenAccountBanner } from './frozen-account-banner.tsx';
import { MenuToggle, useEscapeCloses } from './menu-toggle.tsx';
import './nav-link.css';
import './bank-layout.css';

const menuLinks = [
  { to: '/dashboard', label: 'Home', Icon: House },
  { to: '/profile', label: 'Profile', Icon: User },
  { to: '/deposit', label: 'Deposit', Icon: ArrowDownToLine },
  { to: '/billpay', label: 'Bill Pay', Icon: ReceiptText },
  { to: '/transfer', label: 'Transfer', Icon: ArrowLeftRight },
  // Payments on a date or repeating (issue 33): the upcoming ones are looked for from anywhere.
  { to: '/payments/scheduled', label: 'Scheduled payments', Icon: CalendarClock },
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

/** The phone's tab bar: two tabs, the plus to beneficiaries, two more. */
const tabsBeforePlus = [
  { to: '/dashboard', label: 'Home', Icon: House },
  { to: '/deposit', label: 'Deposit', Icon: ArrowDownToLine },
] as const;

const tabsAfterPlus = [
  { to: '/transfer', label: 'Transfer', Icon: ArrowLeftRight },
  { to: '/settings', label: 'Explore', Icon: Compass },
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

interface BankHeaderProps {
  menuOpen: boolean;
  onToggleMenu: () => void;
  menuButtonRef: Ref<HTMLButtonElement>;
}

function BankHeader({ menuOpen, onToggleMenu, menuButtonRef }: BankHeaderProps) {
  return (
    <header className="bank-header">
      <BrandLink to="/dashboard" className="bank-header__brand" />
      <div className="bank-header__actions">
        <NotificationBell />
        <ProfileAvatar />
        <MenuToggle ref={menuButtonRef} open={menuOpen} controls="bank-menu" onToggle={onToggleMenu} />
      </div>
    </header>
  );
}

/** The menu: a sidebar on wide screens, a drawer behind "Menu" on narrow ones; Logout last. */
function BankMenu({ open, onClose, onSignOut, signingOut }: { open: boolean; onClose: () => void; onSignOut: () => void; signingOut: boolean }) {
  return (
    <nav
      id="bank-menu"
      className={open ? 'bank-nav bank-nav--open' : 'bank-nav'}
      aria-label="Online banking"
      onClick={(event) => {
        // Choosing a link closes the menu, also the link of the page already shown (the address does not change then).
        if (event.target instanceof Element && event.target.closest('a')) onClose();
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
          <button type="button" className="bank-nav__link" onClick={onSignOut} disabled={signingOut}>
            <LogOut aria-hidden="true" size={20} />
            {signingOut ? 'Signing out…' : 'Logout'}
          </button>
        </li>
      </ul>
    </nav>
  );
}

/** The phone's bottom tab bar of the seed: Home, Deposit, a plus to beneficiaries, Transfer and Explore. */
function TabLinks({ tabs }: { tabs: typeof tabsBeforePlus | typeof tabsAfterPlus }) {
  return tabs.map(({ to, label, Icon }) => (
    <NavLink key={to} to={to} className={tabClass}>
      <Icon aria-hidden="true" size={22} />
      {label}
    </NavLink>
  ));
}

function TabBar() {
  return (
    <nav className="tab-bar" aria-label="Shortcuts">
      <TabLinks tabs={tabsBeforePlus} />
      <NavLink to="/beneficiaries" className="tab-bar__plus" aria-label="Beneficiaries">
        <Plus aria-hidden="true" size={26} />
      </NavLink>
      <TabLinks tabs={tabsAfterPlus} />
    </nav>
  );
}

/**
 * The signed-in frame: the header with the notifications bell, the menu (a sidebar on wide
 * screens, a drawer behind "Menu" on narrow ones) and, on phones, the bottom tab bar of the seed:
 * Home, Deposit, a plus to beneficiaries, Transfer and Explore. It also keeps the screens live
 * (server-sent events) for as long as the customer is signed in.
 */
export function BankLayout() {
  const { pathname } = useLocation();
  const { signOut, signingOut, failedDialog } = useSignOut();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  useLiveEvents();

  useEffect(() => setMenuOpen(false), [pathname]);
  useEscapeCloses(menuOpen, () => {
    setMenuOpen(false);
    menuButtonRef.current?.focus();
  });

  return (
    <div className="bank-layout">
      <BankHeader menuOpen={menuOpen} onToggleMenu={() => setMenuOpen((open) => !open)} menuButtonRef={menuButtonRef} />
      <BankMenu open={menuOpen} onClose={() => setMenuOpen(false)} onSignOut={signOut} signingOut={signingOut} />

      <main id="main" className="bank-main" tabIndex={-1}>
        <FrozenAccountBanner />
        <PageOutlet />
      </main>

      <TabBar />
      <SessionIdleWatch />
      {failedDialog}
    </div>
  );
}
