import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { rovingTargetIndex } from './roving-focus.ts';
import './tabs.css';

export interface TabItem {
  id: string;
  label: ReactNode;
  panel: ReactNode;
}

export interface TabsProps {
  /** Names the tab list for screen readers: "Beneficiaries by bank". */
  label: string;
  items: readonly TabItem[];
  /** Controlled selection; leave out to let the tabs keep their own. */
  selectedId?: string;
  defaultSelectedId?: string;
  onSelectedChange?: (id: string) => void;
}

/**
 * Tabs after the WAI-ARIA pattern: one tab stop for the whole list (roving tabindex), arrow keys
 * move between tabs and select them, Home and End jump to the ends.
 */
export function Tabs({ label, items, selectedId, defaultSelectedId, onSelectedChange }: TabsProps) {
  const baseId = useId();
  const [ownSelectedId, setOwnSelectedId] = useState(defaultSelectedId ?? items[0]?.id);
  const currentId = selectedId ?? ownSelectedId;
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());

  function select(id: string, moveFocus: boolean) {
    if (selectedId === undefined) setOwnSelectedId(id);
    onSelectedChange?.(id);
    if (moveFocus) tabRefs.current.get(id)?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const targetIndex = rovingTargetIndex(event.key, index, items.length, 'horizontal');
    const target = targetIndex === undefined ? undefined : items[targetIndex];
    if (!target) return;
    event.preventDefault();
    select(target.id, true);
  }

  return (
    <div className="tabs">
      <div className="tabs__list" role="tablist" aria-label={label}>
        {items.map((item, index) => {
          const selected = item.id === currentId;
          return (
            <button
              key={item.id}
              ref={(element) => {
                if (element) tabRefs.current.set(item.id, element);
                else tabRefs.current.delete(item.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item.id}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              className="tabs__tab"
              onClick={() => select(item.id, false)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.id}
          role="tabpanel"
          id={`${baseId}-panel-${item.id}`}
          aria-labelledby={`${baseId}-tab-${item.id}`}
          hidden={item.id !== currentId}
          tabIndex={0}
          className="tabs__panel"
        >
          {item.id === currentId ? item.panel : null}
        </div>
      ))}
    </div>
  );
}
