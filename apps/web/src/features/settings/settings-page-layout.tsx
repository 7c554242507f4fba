import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import './security/security.css';

export interface SettingsPageLayoutProps {
  /** The page's heading and its title in the browser. */
  title: string;
  /** The page's description for the browser. */
  description: string;
  /** The sentence under the heading. */
  lead: string;
  children: ReactNode;
}

/** A page under /settings: the way back to Settings, the heading and its lead, then the page's sections. */
export function SettingsPageLayout({ title, description, lead, children }: SettingsPageLayoutProps) {
  return (
    <div className="security-page">
      <PageMeta title={title} description={description} noIndex />
      <p className="security-page__back">
        <Link to="/settings">
          <ArrowLeft aria-hidden="true" size={18} />
          Settings
        </Link>
      </p>
      <header className="security-page__header">
        <h1>{title}</h1>
        <p>{lead}</p>
      </header>
      {children}
    </div>
  );
}
