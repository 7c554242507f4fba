import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a link to an anchor waits for its section, which may appear only once the page's data has loaded. */
export const anchorWaitMs = 5_000;

/**
 * Scrolls to the element `id` once it is in the page and moves focus there for keyboard and
 * screen-reader users. Sections above it may still be filling in with their data and push it down:
 * for a few seconds the page keeps it in view as it changes, until the person scrolls or types
 * themselves. Returns a cancel.
 */
function scrollToAnchorWhenPresent(id: string): () => void {
  let arrived: HTMLElement | null = null;
  const align = (element: HTMLElement) => element.scrollIntoView({ block: 'start' });
  const arrive = (element: HTMLElement) => {
    arrived = element;
    align(element);
    if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
    element.focus({ preventScroll: true });
  };
  const observer = new MutationObserver(() => {
    if (arrived) {
      if (arrived.isConnected) align(arrived);
      return;
    }
    const element = document.getElementById(id);
    if (element) arrive(element);
  });
  const personTookOver = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const timer = window.setTimeout(() => stop(), anchorWaitMs);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of personTookOver) window.removeEventListener(type, stop, true);
  }
  for (const type of personTookOver) window.addEventListener(type, stop, true);
  observer.observe(document.body, { childList: true, subtree: true });
  const present = document.getElementById(id);
  if (present) arrive(present);
  return stop;
}

/**
 * A new page starts at its top, as it would after a full page load; the declarative router keeps
 * the old scroll position otherwise (a footer link would open the next page at its bottom). A link
 * to an anchor (#section) lands on that section, waiting for it when the page draws it after loading.
 */
export function ScrollReset() {
  const { pathname, hash } = useLocation();
  const firstRender = useRef(true);
  useEffect(() => {
    const isFirst = firstRender.current;
    firstRender.current = false;
    if (hash) return scrollToAnchorWhenPresent(decodeURIComponent(hash.slice(1)));
    if (!isFirst) window.scrollTo(0, 0);
    return undefined;
  }, [pathname, hash]);
  return null;
}
