import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type SyntheticEvent } from 'react';
import { X } from 'lucide-react';
import './dialog.css';

export interface DialogProps {
  open: boolean;
  /** Called when the person asks to close: Esc, the close button. The owner decides by changing `open`. */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom, such as Cancel and Confirm. */
  footer?: ReactNode;
  /** A dialog that shows work in progress cannot be dismissed; the work ends it. */
  dismissible?: boolean;
  /** `alertdialog` for messages that interrupt, such as errors. */
  role?: 'dialog' | 'alertdialog';
  size?: 'sm' | 'md' | 'lg';
}

const focusableSelector =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Where focus goes when a dialog closes and nothing had it before (a dialog that opened with the page): the page's heading. */
function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
}

/**
 * A modal on the native `<dialog>`: `showModal()` makes the rest of the page inert, Esc closes it,
 * Tab and Shift+Tab go round its own controls (the browser would move on to its address bar), and
 * focus goes back to where it was when it closes, or to the page's heading when nothing had it.
 * Focus placement is done here as well because not every engine (jsdom included) does it.
 */
export function Dialog({ open, onClose, title, description, children, footer, dismissible = true, role = 'dialog', size = 'md' }: DialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open) return;
    const active = document.activeElement;
    returnFocusRef.current = active instanceof HTMLElement && active !== document.body ? active : null;
    if (!dialog.open) dialog.showModal();
    // showModal() focuses the first focusable element itself (often the close button); a control
    // marked to receive focus wins over that choice.
    const preferred = dialog.querySelector<HTMLElement>('[autofocus], [data-autofocus]');
    if (preferred) preferred.focus();
    else if (!dialog.contains(document.activeElement) || document.activeElement === dialog) {
      (dialog.querySelector<HTMLElement>(focusableSelector) ?? dialog).focus();
    }
    return () => {
      if (dialog.open) dialog.close();
      const target = returnFocusRef.current;
      returnFocusRef.current = null;
      if (target?.isConnected) target.focus();
      else focusPageHeading();
    };
  }, [open]);

  function requestClose(event: SyntheticEvent) {
    // The browser would close the element itself; React state stays the one source of truth.
    event.preventDefault();
    if (dismissible) onClose();
  }

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      requestClose(event);
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(focusableSelector)];
    const first = focusable.at(0);
    const last = focusable.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialogRef}
      className={`dialog dialog--${size}`}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      tabIndex={-1}
      onCancel={requestClose}
      onKeyDown={onKeyDown}
    >
      {open ? (
        <div className="dialog__body">
          <div className="dialog__header">
            <h2 className="dialog__title" id={titleId}>
              {title}
            </h2>
            {dismissible ? (
              <button type="button" className="dialog__close" onClick={onClose} aria-label="Close">
                <X aria-hidden="true" size={20} />
              </button>
            ) : null}
          </div>
          {description ? (
            <div className="dialog__description" id={descriptionId}>
              {description}
            </div>
          ) : null}
          {children}
          {footer ? <div className="dialog__footer">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
