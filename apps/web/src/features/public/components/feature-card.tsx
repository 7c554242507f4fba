import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Card } from '../../../components/ui/card.tsx';

export interface FeatureCardProps {
  title: string;
  text: string;
  Icon: LucideIcon;
  /** A link under the text, such as "Compare our cards". */
  children?: ReactNode;
}

/** One card of a `card-grid` list: an icon, a title, a sentence and, on the home page, a link on. */
export function FeatureCard({ title, text, Icon, children }: FeatureCardProps) {
  return (
    <Card as="li" className="feature">
      <div className="feature__icon">
        <Icon aria-hidden="true" size={24} />
      </div>
      <h3>{title}</h3>
      <p>{text}</p>
      {children}
    </Card>
  );
}
