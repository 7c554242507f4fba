import { useEffect, useRef, type ReactNode } from 'react';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import './auth-screen.css';

export interface AuthScreenProps {
  title: string;
  /** The document title, when it should differ from the heading. */
  pageTitle?: string;
  description: string;
  lead?: ReactNode;
  /** A decorative icon (lucide, aria-hidden) above the heading. */
  icon?: ReactNode;
  /** The icon's colour: the accent, or the word's meaning as well (success, failure). */
  iconTone?: 'accent' | 'success' | 'danger';
  /**
   * Each new value (a form that became a success message, a check that finished) moves focus to
   * the heading, so a screen reader reads the new state from its top. It does so on arrival too,
   * unless something in the card already took focus (a code box that focuses itself).
   */
  focusKey?: string;
  children?: ReactNode;
}

/** The single card of the sign-in, sign-up, recovery and onboarding screens. */
export function AuthScreen({ title, pageTitle, description, lead, icon, iconTone = 'accent', focusKey = '', children }: AuthScreenProps) {
  const screenRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (screenRef.current?.contains(document.activeElement)) return;
    headingRef.current?.focus({ preventScroll: true });
  }, [focusKey]);

  return (
    <div className="auth-screen container" ref={screenRef}>
      <PageMeta title={pageTitle ?? title} description={description} noIndex />
      <Card className="auth-screen__card">
        {icon ? <div className={`auth-screen__icon auth-screen__icon--${iconTone}`}>{icon}</div> : null}
        <h1 ref={headingRef} tabIndex={-1} className="auth-screen__title">
          {title}
        </h1>
        {lead ? <div className="auth-screen__lead">{lead}</div> : null}
        {children}
      </Card>
    </div>
  );
}

/** Work in progress inside an auth screen: a spinner and, in words, what is happening. */
export function AuthProgress({ label }: { label: string }) {
  return (
    <div className="auth-progress" aria-busy="true">
      <Spinner size="lg" />
      <p role="status">{label}</p>
    </div>
  );
}
