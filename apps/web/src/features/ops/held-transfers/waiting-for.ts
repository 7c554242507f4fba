const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** How long something has waited, in the largest whole unit: "5 min", "2 h", "3 d". */
export function waitingFor(sinceIso: string, now: number = Date.now()): string {
  const waitedMs = Math.max(0, now - new Date(sinceIso).getTime());
  if (waitedMs >= dayMs) return `${Math.floor(waitedMs / dayMs)} d`;
  if (waitedMs >= hourMs) return `${Math.floor(waitedMs / hourMs)} h`;
  return `${Math.floor(waitedMs / minuteMs)} min`;
}
