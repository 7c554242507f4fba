import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import './notice.css';

export type NoticeTone = 'info' | 'success' | 'error';

export interface NoticeProps {
  tone?: NoticeTone;
  children: ReactNode;
  /**
   * `status` (polite) or `alert` (assertive) when the notice appears in answer to something the
   * person did; leave out for text that is there from the start.
   */
  role?: 'status' | 'alert';
  id?: string;
}

const icons = { info: Info, success: CircleCheck, error: CircleAlert } as const;

/** A short message in the page: what just happened, or what to know before going on. */
export function Notice({ tone = 'info', children, role, id }: NoticeProps) {
  const Icon = icons[tone];
  return (
    <div className={`notice notice--${tone}`} role={role} id={id}>
      <Icon aria-hidden="true" size={20} />
      <div className="notice__text">{children}</div>
    </div>
  );
}
