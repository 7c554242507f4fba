import type { ReactNode } from 'react';
import './fact-list.css';

/** A description list of facts (a receipt, a transfer's details): `FactRow`s, one a line. */
export function FactList({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={['fact-list', className ?? ''].filter(Boolean).join(' ')}>{children}</dl>;
}

/** One fact: its label (`term`) and its value. */
export function FactRow({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <div className="fact-list__row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
