import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

export interface ErrorDialogProps {
  /** The message to show; no message, no dialog. */
  message: string | null | undefined;
  onClose: () => void;
  title?: string;
}

/** The shared error dialog: the server's message (or 'network error') and a way to close it. */
export function ErrorDialog({ message, onClose, title = 'Something went wrong' }: ErrorDialogProps) {
  return (
    <Dialog
      open={Boolean(message)}
      onClose={onClose}
      role="alertdialog"
      size="sm"
      title={title}
      description={<p>{message}</p>}
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          Close
        </Button>
      }
    />
  );
}
