import type { Queryable } from '../../db/database.ts';
import { addDays } from '../../platform/business-calendar.ts';
import { completeIfFinished, insertOccurrences, setNextDate, type ScheduleRow } from './repository.ts';
import { seriesBetween, seriesNext } from './series.ts';

/**
 * Writes the occurrences of a schedule's series dated before `before` that are not written yet,
 * each to be paid with the schedule's payment as it is now, and moves the schedule's next date past
 * them; the caller holds the schedule's row lock. The job does it for what has fallen due; an
 * edit, a skip or a cancellation does it first for what has passed its cut-off, so that those
 * occurrences still go as they were when their cut-off passed, whatever the change.
 */
export async function writeOccurrencesBefore(tx: Queryable, schedule: ScheduleRow, before: string, now: Date | null): Promise<ScheduleRow> {
  if (schedule.status !== 'active' || schedule.next_date === null || schedule.next_date >= before) return schedule;
  const due = seriesBetween(schedule, schedule.next_date, addDays(before, -1));
  await insertOccurrences(
    tx,
    schedule.id,
    due.map((occurrence) => ({ dueDate: occurrence.dueDate, date: occurrence.date, status: 'scheduled', payment: schedule.payment })),
  );
  const nextDate = seriesNext(schedule, before, 1)[0]?.date ?? null;
  await setNextDate(tx, schedule.id, nextDate);
  if (nextDate === null) await completeIfFinished(tx, schedule.id, now);
  return { ...schedule, next_date: nextDate };
}
