/**
 * `timestamptz` as PostgreSQL writes it in text (DateStyle ISO, any TimeZone):
 * `2026-11-30 07:28:09.123456+00`, the fraction optional (one to six digits), the offset `+HH`,
 * `+HH:MM` or `+HH:MM:SS`. Read here without a regular expression: node-postgres's own parser
 * (postgres-date) showed in the profile of every page of history, twenty rows a page (issue 37).
 * Anything else (infinity, a year before 1000 or after 9999, BC) goes to `otherwise`, the driver's
 * own parser. JavaScript keeps milliseconds: the fraction is cut after three digits, as the
 * driver's parser does.
 */
export function parseTimestamptz(text: string, otherwise: (text: string) => unknown): unknown {
  const length = text.length;
  if (length < 22 || text.charCodeAt(4) !== dash || text.charCodeAt(7) !== dash || text.charCodeAt(10) !== space) return otherwise(text);
  if (text.charCodeAt(13) !== colon || text.charCodeAt(16) !== colon) return otherwise(text);
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (!(year >= 1000) || !(month >= 1 && month <= 12) || !(day >= 1) || !(hour >= 0) || !(minute >= 0) || !(second >= 0)) return otherwise(text);
  let index = 19;
  let milliseconds = 0;
  if (text.charCodeAt(index) === dot) {
    index += 1;
    const start = index;
    while (index < length && isDigit(text.charCodeAt(index))) index += 1;
    const count = index - start;
    if (count === 0 || count > 6) return otherwise(text);
    for (let place = 0; place < 3; place += 1) milliseconds = milliseconds * 10 + (place < count ? text.charCodeAt(start + place) - zero : 0);
  }
  const sign = text.charCodeAt(index) === plus ? 1 : text.charCodeAt(index) === dash ? -1 : 0;
  if (sign === 0) return otherwise(text);
  let offsetSeconds = 0;
  let part = 0;
  index += 1;
  // +HH, then :MM and :SS if there.
  while (part < 3) {
    const value = digitsAt(text, index, 2);
    if (!(value >= 0)) return otherwise(text);
    offsetSeconds += value * (part === 0 ? 3_600 : part === 1 ? 60 : 1);
    index += 2;
    part += 1;
    if (index === length) break;
    if (text.charCodeAt(index) !== colon) return otherwise(text);
    index += 1;
  }
  if (index !== length) return otherwise(text);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, milliseconds) - sign * offsetSeconds * 1_000);
}

const zero = 48;
const dash = 45;
const space = 32;
const colon = 58;
const dot = 46;
const plus = 43;

function isDigit(code: number): boolean {
  return code >= zero && code <= zero + 9;
}

/** The number written by `count` digits at `start`; NaN when one of them is not a digit. */
function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index += 1) {
    const code = text.charCodeAt(index);
    if (!isDigit(code)) return Number.NaN;
    value = value * 10 + code - zero;
  }
  return value;
}
