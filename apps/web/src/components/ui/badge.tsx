import type { ReactNode } from 'react';
import './badge.css';

export type BadgeTone = 'accent' | 'success' | 'warning' | 'danger' | 'neutral';

export interface BadgeProps {
  tone: BadgeTone;
  /** `sm` (the default) beside body text; `xs` beside a title in a compact card. */
  size?: 'xs' | 'sm';
  /** Bolder, for a word that must catch the eye ("New"). */
  strong?: boolean;
  /** A dot before the words, in the badge's colour. */
  dot?: boolean;
  /** `span` within a line; `p` when the badge stands on a line of its own. */
  as?: 'span' | 'p';
  className?: string;
  children: ReactNode;
}

/** A status in words on a pill of its tone's colour ("New", "In review", "Paid"). */
export function Badge({ tone, size = 'sm', strong = false, dot = false, as: Element = 'span', className, children }: BadgeProps) {
  const classes = ['badge', `badge--${tone}`, size === 'xs' ? 'badge--xs' : '', strong ? 'badge--strong' : '', className ?? ''];
  return (
    <Element className={classes.filter(Boolean).join(' ')}>
      {dot ? <span className="badge__dot" aria-hidden="true" /> : null}
      {children}
    </Element>
  );
}
