import { Dialog } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

export interface LoadingOverlayProps {
  open: boolean;
  /** What is happening, in words: "Sending your message". */
  label: string;
}

/** The shared loading modal: it blocks the page while a request that must not be repeated is running. */
export function LoadingOverlay({ open, label }: LoadingOverlayProps) {
  return (
    <Dialog open={open} onClose={() => undefined} dismissible={false} title={label} size="sm">
      <div className="loading-overlay" aria-busy="true">
        <Spinner size="lg" />
        <p className="loading-overlay__text" role="status">
          Please wait…
        </p>
      </div>
    </Dialog>
  );
}
