import { invalidDate, invalidDateRange, invalidParameter } from './errors.ts';

/**
 * FDX paging (FDX API 6, "Pagination"): `limit` asks for at most so many elements, `offset` is the
 * opaque cursor a previous page's `page.nextOffset` gave; a page with more after it carries
 * `page.nextOffset` and `links.next.href` (the same query with that offset), the last page neither.
 */
export interface PageLimits {
  default: number;
  max: number;
}

/** Accounts and statements are few: their offset is the index of the page's first element. */
export const accountPageLimits: PageLimits = { default: 25, max: 100 };
export const statementPageLimits: PageLimits = { default: 25, max: 100 };

export interface Page<T> {
  items: T[];
  nextOffset: string | undefined;
  totalElements: number;
}

/** `limit` as given, or the default; not a whole number from 1 to the maximum: 400. */
export function parseLimit(text: string | undefined, limits: PageLimits): number {
  if (text === undefined) return limits.default;
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > limits.max) {
    throw invalidParameter('limit', `limit must be a whole number from 1 to ${limits.max}`);
  }
  return Number(text);
}

/** One page of a list held whole, from the index `offset` names (a cursor this API gave). */
export function pageOf<T>(items: readonly T[], offset: string | undefined, limit: number): Page<T> {
  const start = offset === undefined ? 0 : Number(offset);
  if (offset !== undefined && (!/^\d{1,6}$/.test(offset) || start > items.length))
    throw invalidParameter('offset', 'offset must be a page offset this API gave');
  const end = start + limit;
  return { items: items.slice(start, end), nextOffset: end < items.length ? String(end) : undefined, totalElements: items.length };
}

/** `page` and `links` of a PaginatedArray: the next page's link repeats the query with its offset. */
export function pageLinks(path: string, query: Record<string, string | undefined>, nextOffset: string | undefined, totalElements?: number) {
  const page = { ...(nextOffset === undefined ? {} : { nextOffset }), ...(totalElements === undefined ? {} : { totalElements }) };
  if (nextOffset === undefined) return { page, links: {} };
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, offset: nextOffset })) if (value !== undefined) parameters.set(name, value);
  return { page, links: { next: { href: `${path}?${parameters.toString()}` } } };
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A DateString (YYYY-MM-DD) the calendar has; anything else is FDX's 702. */
function calendarDate(parameter: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const match = datePattern.exec(text);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!match || year < 1000 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw invalidDate(parameter);
  return text;
}

/**
 * `startTime` and `endTime`, inclusive calendar dates in the bank's time zone (FDX's DateString;
 * either may be left out, for an open end). An end before the start is FDX's 703.
 */
export function parseDateRange(startTime: string | undefined, endTime: string | undefined): { from?: string; to?: string } {
  const from = calendarDate('startTime', startTime);
  const to = calendarDate('endTime', endTime);
  if (from !== undefined && to !== undefined && from > to) throw invalidDateRange('endTime is before startTime');
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}
