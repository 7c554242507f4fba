import { useEffect, useRef } from 'react';
import type { CreateDataRecipient, DataRecipient } from '@strongroom/contracts/connected-apps.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { scopeLabels, scopesTakenAway } from './recipient-form-schema.ts';

/** Said before an edit that takes data away from an app customers are connected to: their consents lose it at once. */
export function narrowingWarning(recipient: DataRecipient, request: CreateDataRecipient): string | null {
  const removed = scopesTakenAway(recipient, request.allowedScopes);
  if (removed.length === 0 || recipient.activeConsents === 0) return null;
  const words = removed.map((scope) => scopeLabels[scope]).join(', ');
  const customers = recipient.activeConsents === 1 ? '1 connected customer' : `${recipient.activeConsents} connected customers`;
  return `${recipient.name} stops reading ${words} at once for its ${customers}; a consent left with no data ends. This cannot be undone: customers would have to connect again.`;
}

/** The last look before an edit narrows consents in force: the warning, Back, and the button that does it. */
export function NarrowingConfirm({ warning, busy, onBack, onConfirm }: { warning: string; busy: boolean; onBack: () => void; onConfirm: () => void }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  // The form's button that led here is hidden now: focus goes to the choice to make.
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div className="connected-apps__confirm">
      <Notice tone="info" role="alert">
        {warning}
      </Notice>
      <div className="connected-apps__dialog-actions">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back to the form
        </Button>
        <Button ref={confirmRef} variant="danger" loading={busy} onClick={onConfirm}>
          Take the data away
        </Button>
      </div>
    </div>
  );
}
