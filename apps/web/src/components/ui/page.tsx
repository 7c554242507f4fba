import type { HTMLAttributes, ReactNode, Ref } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import './page.css';

export interface PageProps extends HTMLAttributes<HTMLDivElement> {
  /** `reading` (760 px) for lists and text; `wide` (960 px) for tables, tiles and charts. */
  width?: 'reading' | 'wide';
  children: ReactNode;
}

/** The frame of a signed-in screen: its sections in one column, spaced alike on every screen. */
export function Page({ width = 'reading', className, children, ...rest }: PageProps) {
  return (
    <div {...rest} className={['page', width === 'wide' ? 'page--wide' : '', className ?? ''].filter(Boolean).join(' ')}>
      {children}
    </div>
  );
}

export interface PageHeaderProps {
  title: ReactNode;
  /** What stands above the title, styled by the screen: an eyebrow, a greeting. */
  above?: ReactNode;
  /** One or two sentences under the title: what the screen is for. */
  lead?: ReactNode;
  /** Buttons or links at the end of the title's line; they wrap under it on a narrow screen. */
  actions?: ReactNode;
  /** The heading's id, for a section or dialog labelled by it. */
  titleId?: string;
  /** Given when the screen moves focus to its heading (a new step): the heading then takes focus, not Tab. */
  titleRef?: Ref<HTMLHeadingElement>;
  className?: string;
  /** More under the title and lead: a status line, a note. */
  children?: ReactNode;
}

/** A screen's heading (its one h1), with what leads into it and what can be done from it. */
export function PageHeader({ title, above, lead, actions, titleId, titleRef, className, children }: PageHeaderProps) {
  const text = (
    <>
      {above}
      <h1 id={titleId} ref={titleRef} tabIndex={titleRef ? -1 : undefined} className="page-header__title">
        {title}
      </h1>
      {lead ? <p className="page-header__lead">{lead}</p> : null}
      {children}
    </>
  );
  return (
    <header className={['page-header', actions ? 'page-header--actions' : '', className ?? ''].filter(Boolean).join(' ')}>
      {actions ? (
        <>
          <div className="page-header__text">{text}</div>
          {actions}
        </>
      ) : (
        text
      )}
    </header>
  );
}

/** The way up to the screen this one belongs to ("← Settings"), above its heading. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="back-link">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" size={18} />
        {children}
      </Link>
    </p>
  );
}
