/**
 * How long a test waits for a live event. Events travel through PostgreSQL's LISTEN/NOTIFY (or
 * PGlite's) a moment after their commit (decision 043); on a loaded 2-core CI machine running the
 * browser journeys and the fault suites beside the API suites, that moment can exceed vi.waitFor's
 * default second. Waiting longer only matters when the event is late: the wait ends when it comes.
 */
export const liveEventWait = { timeout: 15_000, interval: 20 } as const;
