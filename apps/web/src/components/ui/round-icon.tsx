import type { ReactNode } from 'react';
import './round-icon.css';

/** A decorative icon (lucide, aria-hidden, 32 px) on a round field of its tone: the first thing a page of one message shows. */
export function RoundIcon({ tone = 'accent', children }: { tone?: 'accent' | 'success' | 'danger'; children: ReactNode }) {
  return <div className={`round-icon round-icon--${tone}`}>{children}</div>;
}
