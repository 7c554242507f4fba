import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { addDays, calendarDayIn, isBusinessDay, nextBusinessDay } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite } from '../../test/payments.ts';
import { runEndOfDay } from '../end-of-day/run.ts';
import { runOpsCommand } from '../ops/registry.ts';

/**
 * Issue 35 items 3 and 5 (docs/books.md, "Closing a day"): end of day closes each business day it
 * runs; `npm run ops -- close-day --through D` runs end of day through D and closes the days after
 * the last business day too; production never closes a day after its today.
 */
const timeZone = 'America/New_York';
const todayInBank = () => calendarDayIn(timeZone, new Date());
/** The first Sunday after `day`: end of day runs through the Friday before it (or the last business day). */
const sundayAfter = (day: string) => {
  let sunday = addDays(day, 1);
  while (new Date(`${sunday}T00:00:00Z`).getUTCDay() !== 0) sunday = addDays(sunday, 1);
  return sunday;
};

async function closedDays(db: Database) {
  return db.query<{ day: string; closed_by: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day, closed_by FROM books_closed_days ORDER BY day`);
}

describeEachDatabase('end of day closes each business day it runs', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));

  it('each day run is closed by the system, and a payment made afterwards is booked on the day after the last one closed', async () => {
    const dana = await kit.customer({ fundCents: 500_000n });
    const through = nextBusinessDay(nextBusinessDay(todayInBank()));
    const result = await runEndOfDay({ db: database(), config, liveEvents: app.services.liveEvents }, through);
    expect(result.days.at(-1)).toBe(through);
    expect(await closedDays(database())).toEqual(result.days.map((day) => ({ day, closed_by: 'end-of-day' })));
    const [state] = await database().query<{ closed_through: string }>(`SELECT to_char(closed_through, 'YYYY-MM-DD') AS closed_through FROM books_state`);
    expect(state?.closed_through).toBe(through);
    const audits = await database().query<{ actor_type: string; subject: string }>(
      "SELECT actor_type, subject FROM audit_log WHERE action = 'books.day_closed' ORDER BY id",
    );
    expect(audits).toEqual(result.days.map((day) => ({ actor_type: 'system', subject: day })));

    // The sandbox ran ahead of the clock: a payment made now is booked on the open day, not today.
    const paid = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'After the close'));
    expect(paid.statusCode, paid.body).toBe(201);
    const [booked] = await database().query<{ posted_on: string }>(
      `SELECT to_char(t.posted_on, 'YYYY-MM-DD') AS posted_on FROM ledger_transfers t JOIN payments p ON p.id = t.id WHERE p.message = 'After the close'`,
    );
    expect(booked?.posted_on).toBe(addDays(through, 1));
  });
});

describeEachDatabase('close-day: end of day through a date, then the books closed through it', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));
  const ops = (args: string[], overrides: Partial<Config> = {}) =>
    runOpsCommand({ database: async () => database(), config: { ...config, ...overrides }, liveEvents: app.services.liveEvents }, 'close-day', args);

  it('closes each business day end of day runs and the weekend after it; run again, it closes nothing', async () => {
    await kit.customer();
    const sunday = sundayAfter(nextBusinessDay(todayInBank()));
    const result = await ops(['--through', sunday]);
    expect(result.exitCode, result.output).toBe(0);
    const output = JSON.parse(result.output) as { closedThrough: string; closed: string[]; endOfDay: { days: string[] } };
    expect(output.closedThrough).toBe(sunday);
    expect(output.endOfDay.days.length).toBeGreaterThan(0);
    expect(output.endOfDay.days.every((day) => isBusinessDay(day) && day < sunday)).toBe(true);
    // Each business day end of day ran was closed by it; the Sunday by the command itself.
    expect(output.closed).toEqual([...output.endOfDay.days, sunday]);
    expect(await closedDays(database())).toEqual([
      ...output.endOfDay.days.map((day) => ({ day, closed_by: 'end-of-day' })),
      { day: sunday, closed_by: 'ops-cli' },
    ]);
    const [audit] = await database().query<{ actor_type: string; actor_id: string }>(
      "SELECT actor_type, actor_id FROM audit_log WHERE action = 'books.day_closed' AND subject = $1",
      [sunday],
    );
    expect(audit).toEqual({ actor_type: 'staff', actor_id: 'ops-cli' });

    const again = await ops(['--through', sunday]);
    expect(again.exitCode, again.output).toBe(0);
    expect(JSON.parse(again.output)).toEqual({ closedThrough: sunday, closed: [], endOfDay: { days: [] } });
  });

  it('production refuses a day after its today and closes nothing; a bad date or argument is a usage error', async () => {
    const before = await closedDays(database());
    const refused = await ops(['--through', addDays(todayInBank(), 30)], { mode: 'production' });
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toContain("after the bank's today");
    expect(await closedDays(database())).toEqual(before);
    expect((await ops(['--through', '2026-13-01'])).exitCode).toBe(2);
    expect((await ops([])).exitCode).toBe(2);
    expect((await ops(['--through', todayInBank(), 'extra'])).exitCode).toBe(2);
  });
});
