import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { resetBankTodayCache } from './bank-date.ts';

// The web tests share modules between files: each test starts a new visit, with nothing cached.
beforeEach(() => resetBankTodayCache());

afterEach(() => {
  vi.unstubAllGlobals();
  resetBankTodayCache();
});

const today = (businessDate: string, clockDate: string) => ({ status: 200, body: { businessDate, clockDate, aheadOfClock: businessDate > clockDate } });

describe("the sandbox banner and the bank's date (issue 32 item 5)", () => {
  it("adds the bank's date when the demo's time machine ran ahead of today", async () => {
    renderApp('/', { 'GET /api/v1/calendar/today': today('2027-01-31', '2026-11-29') });
    const notice = screen.getByRole('complementary', { name: 'Sandbox notice' });
    expect(await screen.findByText('January 31, 2027')).toBeTruthy();
    expect(notice.textContent).toContain('Sandbox: no real money');
    expect(notice.textContent).toContain('Bank date: January 31, 2027 (the demo’s time machine ran ahead of today)');
  });

  it("says nothing more when the bank's date is today", async () => {
    const { fetchMock } = renderApp('/', { 'GET /api/v1/calendar/today': today('2026-11-29', '2026-11-29') });
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/calendar/today'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.getByRole('complementary', { name: 'Sandbox notice' }).textContent).toBe('Sandbox: no real money');
  });

  it('asks nothing and shows no banner in production', () => {
    const { fetchMock } = renderApp('/', { 'GET /api/v1/calendar/today': today('2027-01-31', '2026-11-29') }, { name: 'Real Bank', mode: 'production' });
    expect(screen.queryByRole('complementary', { name: 'Sandbox notice' })).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/calendar/today'))).toBe(false);
  });
});
