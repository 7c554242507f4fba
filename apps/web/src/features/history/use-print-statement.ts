import { useEffect, useRef, useState } from 'react';
import { businessConstants } from '@strongroom/contracts/constants.ts';

/** The seed prints history under this document title, which browsers put in the printout's header. */
export const printDocumentTitle = 'Visitor Pass';

/**
 * 'print statement': after the seed's print delay (the page settles: a dialog closing, the last
 * rows drawing) the browser prints the history area under the title 'Visitor Pass', then the page
 * gets its own title back. The print stylesheet leaves navigation, filters and buttons out.
 */
export function usePrintStatement(): { print: () => void; isWaiting: boolean } {
  const [isWaiting, setIsWaiting] = useState(false);
  const timerRef = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timerRef.current), []);

  function print() {
    if (timerRef.current !== undefined) return;
    setIsWaiting(true);
    timerRef.current = window.setTimeout(() => {
      timerRef.current = undefined;
      const ownTitle = document.title;
      document.title = printDocumentTitle;
      try {
        // Desktop browsers return from print() when the print dialog closes.
        window.print();
      } finally {
        document.title = ownTitle;
        setIsWaiting(false);
      }
    }, businessConstants.printDelayMs);
  }

  return { print, isWaiting };
}
