import { useEffect, useEffectEvent, type Ref } from 'react';
import { Menu, X } from 'lucide-react';
import './menu-toggle.css';

export interface MenuToggleProps {
  open: boolean;
  /** The id of the menu the button opens. */
  controls: string;
  onToggle: () => void;
  ref?: Ref<HTMLButtonElement>;
}

/** The "Menu" button of the public header and of the signed-in header, which opens the menu on narrow screens. */
export function MenuToggle({ open, controls, onToggle, ref }: MenuToggleProps) {
  return (
    <button ref={ref} type="button" className="menu-toggle" aria-expanded={open} aria-controls={controls} onClick={onToggle}>
      {open ? <X aria-hidden="true" size={22} /> : <Menu aria-hidden="true" size={22} />}
      <span>Menu</span>
    </button>
  );
}

/** Escape closes an open phone menu wherever the focus is (the Menu button too), not only inside it. */
export function useEscapeCloses(open: boolean, close: () => void) {
  const onEscape = useEffectEvent(close);
  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      onEscape();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
}
