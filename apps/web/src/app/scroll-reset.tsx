import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * A new page starts at its top, as it would after a full page load; the declarative router keeps
 * the old scroll position otherwise (a footer link would open the next page at its bottom). Links
 * to an anchor (#section) keep their own scrolling.
 */
export function ScrollReset() {
  const { pathname, hash } = useLocation();
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}
