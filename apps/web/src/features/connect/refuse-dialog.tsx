import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';

interface RefuseDialogProps {
  open: boolean;
  appName: string;
  refusing: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** "Don't allow" asks once more: the request cannot be answered again afterwards. */
export function RefuseDialog({ open, appName, refusing, onConfirm, onCancel }: RefuseDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      dismissible={!refusing}
      size="sm"
      title={`Don’t allow ${appName}?`}
      description={<p>{`${appName} gets nothing from your accounts, and you go back to it. To connect it later, start again from ${appName}.`}</p>}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={refusing}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={refusing} data-autofocus>
            Don’t allow
          </Button>
        </>
      }
    />
  );
}
