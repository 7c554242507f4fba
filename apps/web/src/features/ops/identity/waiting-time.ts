const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** How long something has waited, as the queues show it: "under a minute", "12 min", "3 h", "2 d". */
export function waitingFor(since: string, now: number = Date.now()): string {
  const waitedMs = Math.max(0, now - new Date(since).getTime());
  if (waitedMs < minuteMs) return 'under a minute';
  if (waitedMs < hourMs) return `${Math.floor(waitedMs / minuteMs)} min`;
  if (waitedMs < dayMs) return `${Math.floor(waitedMs / hourMs)} h`;
  return `${Math.floor(waitedMs / dayMs)} d`;
}
