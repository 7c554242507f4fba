import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './timestamp.ts';

const driver = pg.types.getTypeParser(1184, 'text') as (text: string) => unknown;
const read = (text: string) => parseTimestamptz(text, driver);

/** A deterministic stream of numbers in [0, 1): the same cases on every run. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

describe('reading timestamptz as PostgreSQL writes it', () => {
  it('gives the instant the writing names, to the millisecond, whatever the offset', () => {
    expect((read('2026-11-30 07:28:09.123456+00') as Date).toISOString()).toBe('2026-11-30T07:28:09.123Z');
    expect((read('2026-11-30 07:28:09+00') as Date).toISOString()).toBe('2026-11-30T07:28:09.000Z');
    expect((read('2026-11-30 02:28:09.5-05') as Date).toISOString()).toBe('2026-11-30T07:28:09.500Z');
    expect((read('2026-11-30 12:58:09.07+05:30') as Date).toISOString()).toBe('2026-11-30T07:28:09.070Z');
    expect((read('1883-11-18 12:03:58.999999-04:56:02') as Date).toISOString()).toBe('1883-11-18T17:00:00.999Z');
    expect((read('2024-02-29 23:59:59.9999+14') as Date).toISOString()).toBe('2024-02-29T09:59:59.999Z');
  });

  it('answers what node-postgres answers for ten thousand writings of every shape', () => {
    const next = numbers(37);
    for (let case_ = 0; case_ < 10_000; case_ += 1) {
      const instant = new Date(Date.UTC(1000, 0, 1) + Math.floor(next() * (Date.UTC(9999, 11, 31) - Date.UTC(1000, 0, 1))));
      const digits = Math.floor(next() * 7);
      const fraction = digits === 0 ? '' : `.${pad(Math.floor(next() * 10 ** digits), digits)}`;
      const offsetMinutes = Math.floor(next() * 28 * 60) - 14 * 60;
      const offsetSeconds = next() < 0.05 ? Math.floor(next() * 60) : 0;
      const sign = offsetMinutes < 0 ? '-' : '+';
      const hours = Math.floor(Math.abs(offsetMinutes) / 60);
      const minutes = Math.abs(offsetMinutes) % 60;
      const offset = `${sign}${pad(hours)}${minutes > 0 || offsetSeconds > 0 ? `:${pad(minutes)}` : ''}${offsetSeconds > 0 ? `:${pad(offsetSeconds)}` : ''}`;
      const wall = new Date(instant.getTime() + (sign === '-' ? -1 : 1) * (hours * 3_600 + minutes * 60 + offsetSeconds) * 1_000);
      const text = `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}${fraction}${offset}`;
      expect((read(text) as Date).getTime(), text).toBe((driver(text) as Date).getTime());
    }
  });

  it('leaves to node-postgres what it does not read itself: infinity, BC, years outside 1000 to 9999', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 12:00:00+00 BC',
      '0099-01-01 00:00:00+00',
      '12026-01-01 00:00:00+00',
      '2026-11-30 07:28:09.1234567+00',
    ]) {
      const ours = read(text);
      const theirs = driver(text);
      expect(ours instanceof Date ? ours.getTime() : ours, text).toEqual(theirs instanceof Date ? theirs.getTime() : theirs);
    }
  });
});
