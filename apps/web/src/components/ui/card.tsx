import type { HTMLAttributes, ReactNode } from 'react';
import './card.css';

export interface CardProps extends HTMLAttributes<HTMLElement> {
  /** `section` when the card has its own heading, `article` for a self-contained item. */
  as?: 'div' | 'section' | 'article' | 'li';
  /** Raised cards sit on a tinted page; flat cards on a white one. */
  tone?: 'raised' | 'flat' | 'accent';
  children: ReactNode;
}

export function Card({ as: Element = 'div', tone = 'raised', className, children, ...rest }: CardProps) {
  return (
    <Element {...rest} className={['card', `card--${tone}`, className ?? ''].filter(Boolean).join(' ')}>
      {children}
    </Element>
  );
}
