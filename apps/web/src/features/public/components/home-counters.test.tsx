import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { homeCounters } from '@strongroom/contracts/constants.ts';
import { formatCounterValue, HomeCounters } from './home-counters.tsx';

const [feedback, workers, contributors] = homeCounters;

function mockReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('prefers-reduced-motion'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

function visibleValues(): string[] {
  return Array.from(document.querySelectorAll('.counter__value'), (element) => element.textContent ?? '');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('formatCounterValue', () => {
  it('writes each step in the shape of the final figure', () => {
    if (!feedback || !workers || !contributors) throw new Error('three counters expected');
    expect(formatCounterValue(feedback, 0)).toBe('0K');
    expect(formatCounterValue(feedback, 7_400)).toBe('7K');
    expect(formatCounterValue(feedback, 10_000)).toBe('10K');
    expect(formatCounterValue(workers, 1_234)).toBe('1234+');
    expect(formatCounterValue(workers, 2_000)).toBe('2000+');
    expect(formatCounterValue(contributors, 500)).toBe('500++');
  });
});

describe('HomeCounters', () => {
  it('shows the final figures at once when the visitor prefers reduced motion', () => {
    mockReducedMotion(true);
    render(<HomeCounters />);
    expect(visibleValues()).toEqual(['10K', '2000+', '500++']);
  });

  it('pre-renders the final figures, so the static page and its screenshots never say 0K', () => {
    const html = renderToString(<HomeCounters />);
    expect(html).toContain('10K');
    expect(html).toContain('2000+');
    expect(html).toContain('500++');
    expect(html).not.toMatch(/>0K</);
  });

  it('keeps the final figures while the section is off screen', () => {
    mockReducedMotion(false);
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    render(<HomeCounters />);
    expect(visibleValues()).toEqual(['10K', '2000+', '500++']);
  });

  it('counts up after each counter’s delay once it is on screen, and stops at its figure', () => {
    mockReducedMotion(false);
    vi.useFakeTimers();
    render(<HomeCounters />);
    // jsdom has no IntersectionObserver, so the counters start as if already in view.
    expect(visibleValues()).toEqual(['0K', '0+', '0++']);

    act(() => vi.advanceTimersByTime(1_100));
    const [feedbackValue, workersValue] = visibleValues();
    expect(feedbackValue).toBe('0K');
    expect(workersValue).not.toBe('0+');

    act(() => vi.advanceTimersByTime(5_000));
    expect(visibleValues()).toEqual(['10K', '2000+', '500++']);
    expect(screen.getByText('Feedback')).toBeTruthy();
  });
});
