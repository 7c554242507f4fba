/** How long `eventually` waits unless told otherwise: something that should happen within a poll or two. */
const defaultWaitMs = 5_000;

/**
 * Polls `probe` until it gives a value (anything but `undefined` or `false`) and returns that value;
 * throws "`what` did not happen in time" after `waitMs`. For a condition, return a boolean.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  { waitMs = defaultWaitMs, pollMs = 10 }: { waitMs?: number; pollMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
