import type { Config } from '../../config.ts';
import { systemClock, type Clock } from '../../db/clock.ts';
import type { Queryable } from '../../db/database.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { earliestPaymentDate, nextOccurrences, occurrencesBetween, type PlannedOccurrence, type Recurrence } from './occurrences.ts';
import type { ScheduleKind, ScheduleRow } from './repository.ts';

/**
 * A schedule's series as it stands: the recurrence it was made or last edited with, counting only
 * the due dates from the day of that change on (the earlier ones were the earlier version's, and
 * their occurrence rows say what became of them).
 */
type SeriesRow = Pick<ScheduleRow, 'start_date' | 'frequency' | 'day_of_month' | 'last_business_day' | 'end_date' | 'count' | 'floor_date' | 'applies_from'>;

export function recurrenceOf(row: SeriesRow): Recurrence {
  return {
    startDate: row.start_date,
    frequency: row.frequency,
    dayOfMonth: row.last_business_day ? 'last' : row.day_of_month,
    endDate: row.end_date,
    count: row.count,
    floorDate: row.floor_date,
  };
}

/** The series' occurrences dated from `from` to `to`, both included. */
export function seriesBetween(row: SeriesRow, from: string, to: string): PlannedOccurrence[] {
  if (to < from) return [];
  return occurrencesBetween(recurrenceOf(row), from, to).filter((occurrence) => occurrence.dueDate >= row.applies_from);
}

/**
 * Due dates of an earlier version that the recurrence pulls up to its floor: at most a few, since
 * occurrences.ts looks from ten days before the floor (a weekly series has two there).
 */
const pulledUpMost = 5;

/** The series' first `n` occurrences dated on or after `from`. */
export function seriesNext(row: SeriesRow, from: string, n: number): PlannedOccurrence[] {
  return nextOccurrences(recurrenceOf(row), from, n + pulledUpMost)
    .filter((occurrence) => occurrence.dueDate >= row.applies_from)
    .slice(0, n);
}

/** The day a request or a run sees: the bank's date, the first date a payment made now can have, and now. */
export interface BankDay {
  today: string;
  /** Occurrences dated before it have passed their cut-off: they are being paid and can no longer change. */
  earliest: string;
  now: Date;
}

export async function bankDayOf(db: Queryable, config: Pick<Config, 'bankTimeZone' | 'achCutoff'>, clock: Clock = systemClock): Promise<BankDay> {
  const now = clock.now();
  const today = await bankDate(db, config, clock);
  return { today, earliest: earliestPaymentDate(now, today, config.achCutoff, config.bankTimeZone), now };
}

/** A schedule's kind, as the occurrences' "arrives by" reads it; a card payment is never scheduled. */
export function scheduleKindOf(kind: string): ScheduleKind {
  if (kind === 'own' || kind === 'internal' || kind === 'external' || kind === 'bill') return kind;
  throw new Error(`a scheduled payment of kind ${kind}`);
}

/** The last day of the window the upcoming list and a schedule's occurrences look at. */
export function horizonOf(day: BankDay, days: number): string {
  return addDays(day.today, days);
}
