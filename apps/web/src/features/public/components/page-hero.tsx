import type { ReactNode } from 'react';

export interface PageHeroProps {
  /** A short line above the heading: the section of the site. */
  eyebrow: string;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}

/** The top of every inner public page: where you are, what the page is about, what you can do. */
export function PageHero({ eyebrow, title, children, actions }: PageHeroProps) {
  return (
    <section className="page-hero" aria-labelledby="page-title">
      <div className="container">
        <p className="eyebrow">{eyebrow}</p>
        <h1 id="page-title">{title}</h1>
        {children ? <div className="page-hero__lead">{children}</div> : null}
        {actions ? <div className="page-hero__actions">{actions}</div> : null}
      </div>
    </section>
  );
}
