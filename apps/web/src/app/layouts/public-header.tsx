import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type Ref } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { ChevronDown } from 'lucide-react';
import { buttonClassName } from '../../components/ui/button.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { BrandMark } from './brand-mark.tsx';
import { MenuToggle, useEscapeCloses } from './menu-toggle.tsx';
import './nav-link.css';
import './public-header.css';

const mainLinks = [
  { to: '/about', label: 'About' },
  { to: '/cards', label: 'Cards' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact' },
] as const;

const personalLinks = [
  { to: '/savings', label: 'Savings' },
  { to: '/current', label: 'Current' },
] as const;

function navLinkClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'site-nav__link site-nav__link--active' : 'site-nav__link';
}

/** The `<li>`s of a list of site links. */
function NavLinkItems({ links }: { links: readonly { to: string; label: string }[] }) {
  return links.map((link) => (
    <li key={link.to}>
      <NavLink to={link.to} className={navLinkClass}>
        {link.label}
      </NavLink>
    </li>
  ));
}

interface PersonalMenuProps {
  open: boolean;
  active: boolean;
  onToggle: () => void;
  buttonRef: Ref<HTMLButtonElement>;
  groupRef: Ref<HTMLLIElement>;
}

/** Personal: a disclosure holding Savings and Current. */
function PersonalMenu({ open, active, onToggle, buttonRef, groupRef }: PersonalMenuProps) {
  return (
    <li className="site-nav__group" ref={groupRef}>
      <button
        ref={buttonRef}
        type="button"
        className={active ? 'site-nav__link site-nav__link--active' : 'site-nav__link'}
        aria-expanded={open}
        aria-controls="personal-menu"
        onClick={onToggle}
      >
        Personal
        <ChevronDown className="site-nav__chevron" aria-hidden="true" size={18} />
      </button>
      <ul id="personal-menu" className="site-nav__submenu" hidden={!open}>
        <NavLinkItems links={personalLinks} />
      </ul>
    </li>
  );
}

function SiteNavActions() {
  return (
    <>
      <div className="site-nav__actions site-nav__actions--wide">
        <Link to="/login" className={buttonClassName({ variant: 'primary' }, 'site-nav__banking')}>
          Online banking
        </Link>
      </div>
      <div className="site-nav__actions site-nav__actions--narrow">
        <Link to="/login" className={buttonClassName({ variant: 'secondary', block: true })}>
          Login
        </Link>
        <Link to="/signup" className={buttonClassName({ variant: 'primary', block: true })}>
          Signup
        </Link>
      </div>
    </>
  );
}

/**
 * The open and closed state of the phone menu and of Personal: a followed link closes both, a
 * pointer elsewhere closes Personal, and Esc closes what is open and gives focus back to the
 * button that opened it.
 */
function usePublicMenus() {
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [personalOpen, setPersonalOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const personalButtonRef = useRef<HTMLButtonElement>(null);
  const personalRef = useRef<HTMLLIElement>(null);
  const personalActive = personalLinks.some((link) => link.to === pathname);

  // A link was followed: whatever menu was open has done its job.
  useEffect(() => {
    setMenuOpen(false);
    setPersonalOpen(false);
  }, [pathname]);

  // The Personal dropdown closes when the pointer or focus goes elsewhere on the page.
  useEffect(() => {
    if (!personalOpen) return;
    function onPointerDown(event: PointerEvent) {
      if (event.target instanceof Node && !personalRef.current?.contains(event.target)) setPersonalOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [personalOpen]);

  useEscapeCloses(menuOpen, () => {
    setMenuOpen(false);
    setPersonalOpen(false);
    menuButtonRef.current?.focus();
  });

  // Choosing a link closes the menu, also the link of the page already shown (the address does not change then).
  function onNavClick(event: MouseEvent<HTMLElement>) {
    if (event.target instanceof Element && event.target.closest('a')) {
      setMenuOpen(false);
      setPersonalOpen(false);
    }
  }

  function onNavKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    if (personalOpen) {
      setPersonalOpen(false);
      personalButtonRef.current?.focus();
    } else if (menuOpen) {
      setMenuOpen(false);
      menuButtonRef.current?.focus();
    }
  }

  return {
    menuOpen,
    toggleMenu: () => setMenuOpen((open) => !open),
    menuButtonRef,
    personal: {
      open: personalOpen,
      active: personalActive,
      onToggle: () => setPersonalOpen((open) => !open),
      buttonRef: personalButtonRef,
      groupRef: personalRef,
    },
    onNavClick,
    onNavKeyDown,
  };
}

/**
 * Public navigation. On wide screens every link shows; on narrow ones a Menu button opens them
 * (with Login and Signup). Personal is a disclosure holding Savings and Current. Esc closes what
 * is open and gives focus back to the button that opened it.
 */
export function PublicHeader() {
  const { name } = useBankIdentity();
  const { menuOpen, toggleMenu, menuButtonRef, personal, onNavClick, onNavKeyDown } = usePublicMenus();

  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="brand">
          <BrandMark />
          <span className="brand__name">{name}</span>
        </Link>

        <MenuToggle ref={menuButtonRef} open={menuOpen} controls="site-menu" onToggle={toggleMenu} />

        <nav id="site-menu" className={menuOpen ? 'site-nav site-nav--open' : 'site-nav'} aria-label="Main" onKeyDown={onNavKeyDown} onClick={onNavClick}>
          <ul className="site-nav__list">
            <li>
              <NavLink to="/" end className={navLinkClass}>
                Home
              </NavLink>
            </li>
            <PersonalMenu {...personal} />
            <NavLinkItems links={mainLinks} />
          </ul>
          <SiteNavActions />
        </nav>
      </div>
    </header>
  );
}
