import type { BankToday } from '@strongroom/contracts/calendar.ts';
import { apiRequest, ApiError, isRecord } from '../../lib/api-client.ts';

/**
 * `GET /api/v1/calendar/today` (public): the bank's business date against today's. The sandbox
 * banner reads it once per visit, on every page, the public ones included; so, like
 * lib/public-settings.ts, the answer is checked by hand rather than with zod, and kept for the visit.
 * The banner loads this module after the first paint, in a chunk of its own (sandbox-banner.tsx).
 */
const isDay = (value: unknown): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** What the banner needs of the answer; the scheduling screens read the cut-off fields with zod. */
export type BannerBankToday = Pick<BankToday, 'businessDate' | 'clockDate' | 'aheadOfClock'>;

export function parseBankToday(data: unknown): BannerBankToday {
  if (isRecord(data) && isDay(data.businessDate) && isDay(data.clockDate) && typeof data.aheadOfClock === 'boolean')
    return { businessDate: data.businessDate, clockDate: data.clockDate, aheadOfClock: data.aheadOfClock };
  throw new ApiError({ status: 200, code: 'internal_error', message: 'The calendar answer has an unexpected shape' });
}

let cached: Promise<BannerBankToday | null> | null = null;

/** The answer for this visit, asked once; a failure is not shown: the banner then says only what it always says. */
export function bankToday(): Promise<BannerBankToday | null> {
  cached ??= apiRequest('/calendar/today', { parse: parseBankToday }).catch(() => null);
  return cached;
}

/** Test seam: forget the cached answer. */
export function resetBankTodayCache() {
  cached = null;
}
