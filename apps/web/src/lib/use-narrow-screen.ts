import { useSyncExternalStore } from 'react';

/** Below this width the five columns do not fit; history becomes a list instead of a table that scrolls sideways. */
export const narrowScreenQuery = '(max-width: 599.98px)';

function mediaQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(narrowScreenQuery) : null;
}

function subscribe(onChange: () => void): () => void {
  const query = mediaQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** Whether the screen is narrow now; follows rotation and window resizing. Without matchMedia: wide. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => mediaQuery()?.matches ?? false,
    () => false,
  );
}
