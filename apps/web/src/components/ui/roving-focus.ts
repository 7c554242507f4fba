/**
 * Where a key moves focus in a group that is one stop for Tab (an accordion's headers, a tab list):
 * the next or previous item along the group's orientation, wrapping round, or the first (Home) or
 * last (End); undefined for any other key, which the group leaves alone.
 */
export function rovingTargetIndex(key: string, index: number, count: number, orientation: 'vertical' | 'horizontal'): number | undefined {
  const lastIndex = count - 1;
  const [previous, next] = orientation === 'vertical' ? ['ArrowUp', 'ArrowDown'] : ['ArrowLeft', 'ArrowRight'];
  if (key === next) return index === lastIndex ? 0 : index + 1;
  if (key === previous) return index === 0 ? lastIndex : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return lastIndex;
  return undefined;
}
