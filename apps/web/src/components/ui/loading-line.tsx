import type { ReactNode } from 'react';
import { Spinner } from './spinner.tsx';
import './loading-line.css';

/** A list or figure on its way: a small spinner and, in words, what is loading ("Loading your cards…"). */
export function LoadingLine({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p className={['loading-line', className ?? ''].filter(Boolean).join(' ')} aria-busy="true">
      <Spinner size="sm" /> {children}
    </p>
  );
}
