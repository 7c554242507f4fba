import { useEffect, useState } from 'react';

/**
 * How often the remaining time is read again. Shorter than a second, so a timer that fires a little
 * late never makes the display skip a second; the state only changes when the whole second does.
 */
const countdownTickMs = 250;

function secondsLeft(deadlineMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1_000));
}

/**
 * Whole seconds left until `deadlineMs` (a `Date.now()` timestamp), 0 once it has passed; `null`
 * means no countdown. It is worked out from the clock on every tick rather than counted down, so it
 * stays right after the tab slept in the background.
 */
export function useSecondsLeft(deadlineMs: number | null): number {
  const [countdown, setCountdown] = useState(() => ({ deadlineMs, left: deadlineMs === null ? 0 : secondsLeft(deadlineMs) }));
  // A new deadline counts in the same render that brings it, not one effect later: a button it
  // disables is never briefly enabled.
  let current = countdown;
  if (countdown.deadlineMs !== deadlineMs) {
    current = { deadlineMs, left: deadlineMs === null ? 0 : secondsLeft(deadlineMs) };
    setCountdown(current);
  }
  useEffect(() => {
    if (deadlineMs === null) return;
    const timer = window.setInterval(() => {
      const next = secondsLeft(deadlineMs);
      setCountdown((previous) => (previous.deadlineMs === deadlineMs && previous.left === next ? previous : { deadlineMs, left: next }));
      if (next === 0) window.clearInterval(timer);
    }, countdownTickMs);
    return () => window.clearInterval(timer);
  }, [deadlineMs]);
  return current.left;
}
