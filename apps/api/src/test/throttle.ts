import type { ThrottlePolicy } from '../platform/login-throttle.ts';

/**
 * How many sign-ins of a burst that took `elapsedMs` may be checked (not refused 429) by one key:
 * one at a time, its free failures and the one that starts the first wait; then one more each time
 * a wait (2, 4, 8 ... seconds, platform/login-throttle.ts) could have run out while the burst was
 * still arriving. On a loaded machine a burst of 40 can take longer than the first wait, and the
 * throttle then rightly checks the next attempt; without the reservation all 40 would be checked.
 */
export function checksAllowedInBurst(policy: ThrottlePolicy, elapsedMs: number): number {
  let allowed = policy.freeFailures + 1;
  let waitedSeconds = 0;
  for (let excess = 1; waitedSeconds + 2 ** excess <= Math.ceil(elapsedMs / 1_000); excess += 1) {
    waitedSeconds += 2 ** excess;
    allowed += 1;
  }
  return allowed;
}
