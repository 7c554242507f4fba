import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatCountdown } from './dates.ts';
import { useSecondsLeft } from './use-countdown.ts';

function Countdown({ seconds }: { seconds: number }) {
  const [deadline] = useState(() => Date.now() + seconds * 1_000);
  const left = useSecondsLeft(deadline);
  return <p>Arrive in {formatCountdown(left)}</p>;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('countdown', () => {
  it('writes seconds as two-digit minutes and seconds', () => {
    expect(formatCountdown(350)).toBe('05:50');
    expect(formatCountdown(59)).toBe('00:59');
    expect(formatCountdown(0)).toBe('00:00');
    expect(() => formatCountdown(-1)).toThrow(RangeError);
  });

  it('counts down from 05:50 once a second and stops at 00:00', () => {
    render(<Countdown seconds={350} />);
    expect(screen.getByText('Arrive in 05:50')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByText('Arrive in 05:49')).toBeTruthy();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('Arrive in 04:49')).toBeTruthy();
    act(() => vi.advanceTimersByTime(400_000));
    expect(screen.getByText('Arrive in 00:00')).toBeTruthy();
  });

  it('is right again at once after the tab slept and its timers were held back', () => {
    render(<Countdown seconds={350} />);
    // The clock moves on while no timer runs, as in a background tab.
    act(() => vi.setSystemTime(Date.now() + 100_000));
    act(() => vi.advanceTimersByTime(250));
    expect(screen.getByText('Arrive in 04:10')).toBeTruthy();
  });
});
