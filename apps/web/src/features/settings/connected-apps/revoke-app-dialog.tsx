import type { ConnectedAppConsent } from '@strongroom/contracts/connected-apps.ts';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog.tsx';

/** The confirmation before an app's access ends: it cannot be undone, the app must ask again. */
export function RevokeAppDialog({
  consent,
  busy,
  onConfirm,
  onCancel,
}: {
  consent: ConnectedAppConsent | null;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const name = consent?.app.name ?? '';
  return (
    <ConfirmDialog
      open={consent !== null}
      title={`Revoke access for ${name}?`}
      description={<p>{name} will no longer see your data. Apps you revoke must ask again.</p>}
      confirmLabel="Revoke access"
      confirmVariant="danger"
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
      size="sm"
    />
  );
}
