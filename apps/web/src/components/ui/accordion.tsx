import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { rovingTargetIndex } from './roving-focus.ts';
import './accordion.css';

export interface AccordionItem {
  id: string;
  title: string;
  content: ReactNode;
}

export interface AccordionProps {
  items: readonly AccordionItem[];
  /** The heading level of each item's title in the page outline. */
  headingLevel?: 2 | 3 | 4;
  defaultOpenIds?: readonly string[];
}

/**
 * An accordion after the WAI-ARIA pattern: each title is a button in a heading that shows or hides
 * its region. Panels open independently, so a reader can compare two answers side by side. Enter
 * and Space toggle (native buttons); Up, Down, Home and End move between titles.
 */
export function Accordion({ items, headingLevel = 3, defaultOpenIds = [] }: AccordionProps) {
  const baseId = useId();
  const [openIds, setOpenIds] = useState<ReadonlySet<string>>(() => new Set(defaultOpenIds));
  const buttonRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const Heading = `h${headingLevel}` as const;

  function toggle(id: string) {
    setOpenIds((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const targetIndex = rovingTargetIndex(event.key, index, items.length, 'vertical');
    if (targetIndex === undefined) return;
    event.preventDefault();
    buttonRefs.current[targetIndex]?.focus();
  }

  return (
    <div className="accordion">
      {items.map((item, index) => {
        const open = openIds.has(item.id);
        const buttonId = `${baseId}-button-${item.id}`;
        const panelId = `${baseId}-panel-${item.id}`;
        return (
          <div key={item.id} className="accordion__item">
            <Heading className="accordion__heading">
              <button
                ref={(element) => {
                  buttonRefs.current[index] = element;
                }}
                type="button"
                id={buttonId}
                className="accordion__button"
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => toggle(item.id)}
                onKeyDown={(event) => onKeyDown(event, index)}
              >
                <span>{item.title}</span>
                <ChevronDown className="accordion__chevron" aria-hidden="true" size={20} />
              </button>
            </Heading>
            <div id={panelId} role="region" aria-labelledby={buttonId} className="accordion__panel" hidden={!open}>
              {item.content}
            </div>
          </div>
        );
      })}
    </div>
  );
}
