import type { ReactNode } from 'react';
import './empty-state.css';

export interface EmptyStateProps {
  /** A decorative icon (lucide), marked aria-hidden by the caller. */
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  /** The heading level that fits the page outline at this spot. */
  headingLevel?: 1 | 2 | 3;
}

/** What a list or page says when there is nothing to show yet, and what to do about it. */
export function EmptyState({ icon, title, children, action, headingLevel = 2 }: EmptyStateProps) {
  const Heading = (['h1', 'h2', 'h3'] as const)[headingLevel - 1] ?? 'h2';
  return (
    <div className="empty-state">
      {icon ? <div className="empty-state__icon">{icon}</div> : null}
      <Heading className="empty-state__title">{title}</Heading>
      {children ? <div className="empty-state__text">{children}</div> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  );
}
