import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HomeCounter } from '@strongroom/contracts/staff-settings.ts';
import { resetPublicSettingsCache } from '../../../lib/public-settings.ts';
import { publicSettings } from '../../../test/render-app.tsx';
import { formatCounterValue, HomeCounters } from './home-counters.tsx';

const customers: HomeCounter = { label: 'Customers', value: 12_400, atLeast: true };
const years: HomeCounter = { label: 'Years serving Springfield', value: 35, atLeast: false };

/** The bank's public settings with these figures, as `GET /settings/public` answers them. */
function bankSets(homeCounters: HomeCounter[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ ...publicSettings, homeCounters }), { status: 200, headers: { 'content-type': 'application/json' } })),
  );
}

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

beforeEach(() => resetPublicSettingsCache());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('formatCounterValue', () => {
  it('writes the figure with thousands separators, and a plus when it is "at least"', () => {
    expect(formatCounterValue(customers, 0)).toBe('0+');
    expect(formatCounterValue(customers, 7_400)).toBe('7,400+');
    expect(formatCounterValue(customers, 12_400)).toBe('12,400+');
    expect(formatCounterValue(years, 35)).toBe('35');
  });
});

describe('HomeCounters', () => {
  it('shows no section, and no figure, when the bank has set none (issue 39 item 11: never invented figures)', async () => {
    bankSets([]);
    mockReducedMotion(true);
    const { container } = render(<HomeCounters />);
    await act(async () => undefined);
    expect(container.innerHTML).toBe('');
    expect(screen.queryByRole('heading', { name: 'A bank built with its community' })).toBeNull();
  });

  it('pre-renders no figure: the static page cannot know the bank’s', () => {
    const html = renderToString(<HomeCounters />);
    expect(html).toBe('');
  });

  it('shows the figures the bank set, final at once when the visitor prefers reduced motion', async () => {
    bankSets([customers, years]);
    mockReducedMotion(true);
    render(<HomeCounters />);
    expect(await screen.findByRole('heading', { name: 'A bank built with its community' })).toBeTruthy();
    expect(visibleValues()).toEqual(['12,400+', '35']);
    expect(screen.getByText('Years serving Springfield')).toBeTruthy();
  });

  it('keeps the final figures while the section is off screen', async () => {
    bankSets([customers, years]);
    mockReducedMotion(false);
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    render(<HomeCounters />);
    await screen.findByRole('heading', { name: 'A bank built with its community' });
    expect(visibleValues()).toEqual(['12,400+', '35']);
  });

  it('counts up, one after another, once on screen, and stops at each figure', async () => {
    bankSets([customers, years]);
    mockReducedMotion(false);
    vi.useFakeTimers();
    render(<HomeCounters />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    // jsdom has no IntersectionObserver, so the counters start as if already in view.
    expect(visibleValues()).toEqual(['0+', '0']);

    await act(() => vi.advanceTimersByTimeAsync(400));
    const [customersValue, yearsValue] = visibleValues();
    expect(customersValue).not.toBe('0+');
    expect(yearsValue).toBe('0');

    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(visibleValues()).toEqual(['12,400+', '35']);
  });
});
