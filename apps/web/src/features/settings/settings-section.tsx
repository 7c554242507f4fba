import { useId, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';

export interface SettingsSectionProps {
  icon: LucideIcon;
  /** The section's heading, which also names it for assistive technology. */
  title: string;
  /** A class beside `security-section`, for what only this section shows. */
  className?: string;
  children: ReactNode;
}

/** One card of a settings page (Security, Contact details): an icon, a heading that names the section, then its content. */
export function SettingsSection({ icon: Icon, title, className, children }: SettingsSectionProps) {
  const titleId = useId();
  return (
    <Card as="section" aria-labelledby={titleId} className={className ? `security-section ${className}` : 'security-section'}>
      <div className="security-section__header">
        <Icon aria-hidden="true" size={22} className="security-section__icon" />
        <h2 id={titleId} className="security-section__title">
          {title}
        </h2>
      </div>
      {children}
    </Card>
  );
}

/** A settings form's submit button, busy while its request runs. */
export function SettingsSubmit({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <div className="security-form__actions">
      <Button type="submit" loading={loading}>
        {children}
      </Button>
    </div>
  );
}
