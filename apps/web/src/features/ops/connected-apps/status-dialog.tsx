import { useState, type FormEvent } from 'react';
import { recipientStatusChangeSchema, type DataRecipient } from '@strongroom/contracts/connected-apps.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { AuditReasonField } from '../customers/dialog-form-actions.tsx';
import { useChangeDataRecipientStatus } from './recipients-api.ts';

/** What disabling or enabling does, said before the staff member confirms. */
export function statusConsequence(recipient: DataRecipient): string {
  if (!recipient.enabled)
    return `${recipient.name} can ask customers for their data again. Consents that ended when it was disabled stay ended: customers connect again if they want to.`;
  const count = recipient.activeConsents;
  const who = count === 1 ? '1 connected customer loses' : `${count} connected customers lose`;
  return `${who} access at once: every consent given to ${recipient.name} ends and its tokens stop working on its next request. Enabling it later brings none back.`;
}

/** "Disable" or "Enable" an app: the consequence in words, a reason for the audit log, then the change. */
export function StatusDialog({ recipient, onClose, onDone }: { recipient: DataRecipient; onClose: () => void; onDone: (message: string) => void }) {
  const change = useChangeDataRecipientStatus();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const action = recipient.enabled ? 'disable' : 'enable';

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = recipientStatusChangeSchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    change.mutate(
      { id: recipient.id, action, reason: parsed.data.reason },
      { onSuccess: () => onDone(recipient.enabled ? `${recipient.name} is disabled.` : `${recipient.name} is enabled.`) },
    );
  }

  return (
    <Dialog
      open
      onClose={onClose}
      dismissible={!change.isPending}
      title={`${recipient.enabled ? 'Disable' : 'Enable'} ${recipient.name}`}
      description={statusConsequence(recipient)}
    >
      <form onSubmit={submit} noValidate>
        <AuditReasonField value={reason} onChange={setReason} error={error} />
        {change.error ? (
          <Notice tone="error" role="alert">
            {change.error.message}
          </Notice>
        ) : null}
        <div className="connected-apps__dialog-actions">
          <Button variant="secondary" onClick={onClose} disabled={change.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant={recipient.enabled ? 'danger' : 'primary'} loading={change.isPending}>
            {recipient.enabled ? 'Disable' : 'Enable'} {recipient.name}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
