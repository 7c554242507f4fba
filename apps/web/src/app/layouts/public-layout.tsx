import type { ReactNode } from 'react';
import { PageOutlet } from './page-outlet.tsx';
import { PublicFooter } from './public-footer.tsx';
import { PublicHeader } from './public-header.tsx';
import './public-layout.css';

/**
 * The frame of the public site. `children` replaces the matched page when the route guard shows the
 * sign-in screen in place of a customer page.
 */
export function PublicLayout({ children }: { children?: ReactNode }) {
  return (
    <div className="public-layout">
      <PublicHeader />
      <main id="main" className="public-main" tabIndex={-1}>
        <PageOutlet>{children}</PageOutlet>
      </main>
      <PublicFooter />
    </div>
  );
}
