/** Prev/Next over the approved cards (seed section 2): past the last comes the first again, and before the first the last. */
export function nextCardIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return (index + 1) % count;
}

export function previousCardIndex(index: number, count: number): number {
  if (count <= 0) return 0;
  return (index - 1 + count) % count;
}
