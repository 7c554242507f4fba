import { useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { ChevronDown, Menu, X } from 'lucide-react';
import { buttonClassName } from '../../components/ui/button.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { BrandMark } from './brand-mark.tsx';
import './menu-toggle.css';
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

/**
 * Public navigation. On wide screens every link shows; on narrow ones a Menu button opens them
 * (with Login and Signup). Personal is a disclosure holding Savings and Current. Esc closes what
 * is open and gives focus back to the button that opened it.
 */
export function PublicHeader() {
  const { name } = useBankIdentity();
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

  // Escape closes the phone menu wherever the focus is (the Menu button too), not only inside it.
  useEffect(() => {
    if (!menuOpen) return;
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setMenuOpen(false);
      setPersonalOpen(false);
      menuButtonRef.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

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

  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Link to="/" className="brand">
          <BrandMark />
          <span className="brand__name">{name}</span>
        </Link>

        <button
          ref={menuButtonRef}
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
          <span>Menu</span>
        </button>

        <nav id="site-menu" className={menuOpen ? 'site-nav site-nav--open' : 'site-nav'} aria-label="Main" onKeyDown={onNavKeyDown} onClick={onNavClick}>
          <ul className="site-nav__list">
            <li>
              <NavLink to="/" end className={navLinkClass}>
                Home
              </NavLink>
            </li>
            <li className="site-nav__group" ref={personalRef}>
              <button
                ref={personalButtonRef}
                type="button"
                className={personalActive ? 'site-nav__link site-nav__link--active' : 'site-nav__link'}
                aria-expanded={personalOpen}
                aria-controls="personal-menu"
                onClick={() => setPersonalOpen((open) => !open)}
              >
                Personal
                <ChevronDown className="site-nav__chevron" aria-hidden="true" size={18} />
              </button>
              <ul id="personal-menu" className="site-nav__submenu" hidden={!personalOpen}>
                {personalLinks.map((link) => (
                  <li key={link.to}>
                    <NavLink to={link.to} className={navLinkClass}>
                      {link.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </li>
            {mainLinks.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} className={navLinkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
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
        </nav>
      </div>
    </header>
  );
}
