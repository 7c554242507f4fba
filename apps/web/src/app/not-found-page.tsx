import { Link } from 'react-router';
import { Compass } from 'lucide-react';
import { PageMeta } from '../components/page-meta.tsx';
import { buttonClassName } from '../components/ui/button.tsx';
import { RoundIcon } from '../components/ui/round-icon.tsx';
import './not-found-page.css';

/** Any path the app does not know. The server answers such paths with status 404 too. */
export function NotFoundPage() {
  return (
    <section className="not-found container" aria-labelledby="not-found-title">
      <PageMeta title="Page not found" description="The page you asked for does not exist." noIndex />
      <RoundIcon>
        <Compass aria-hidden="true" size={32} />
      </RoundIcon>
      <p className="not-found__code">Error 404</p>
      <h1 id="not-found-title">Page not found</h1>
      <p className="not-found__text">We could not find the page you were looking for. It may have moved, or the address may be mistyped.</p>
      <Link to="/" className={buttonClassName({ variant: 'primary' })}>
        Go to the home page
      </Link>
    </section>
  );
}
