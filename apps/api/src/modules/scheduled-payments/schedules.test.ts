import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { maxPaymentCents } from '@strongroom/contracts/money-input.ts';
import { maxScheduleDaysAhead, scheduleMessages } from '@strongroom/contracts/scheduled-payments.ts';
import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import { addDays, calendarDayIn, isBusinessDay, nextBusinessDay } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { createTestStaff } from '../../test/staff.ts';
import { cutoffInstant } from './occurrences.ts';

/**
 * Issue 33 items 3 and 5: making, reading, editing, skipping and cancelling scheduled payments
 * (docs/product.md section 7). The app's clock is set to a business day, before or after its
 * cut-off, so every date below is known.
 */
const timeZone = 'America/New_York';

/** A clock a test sets to any instant. */
class SetClock implements Clock {
  #at = new Date();
  now(): Date {
    return new Date(this.#at.getTime());
  }
  set(at: Date): void {
    this.#at = at;
  }
}

function onOrBeforeBusinessDay(day: string): string {
  let date = day;
  while (!isBusinessDay(date)) date = addDays(date, -1);
  return date;
}

function lastBusinessDayOfMonth(day: string): string {
  const [year = 0, month = 0] = day.split('-').map(Number);
  return onOrBeforeBusinessDay(new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10));
}

/** A business day after today with a business day after it, and the Saturday after it. */
const today = nextBusinessDay(calendarDayIn(timeZone, new Date()));
const saturdayAfter = (() => {
  let day = addDays(today, 1);
  while (new Date(`${day}T00:00:00Z`).getUTCDay() !== 6) day = addDays(day, 1);
  return day;
})();

describeEachDatabase('scheduled payments: making and changing them', (database) => {
  const clock = new SetClock();
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ config } = built), { dependencies: { clock } });
  const beforeCutoff = () => clock.set(cutoffInstant(today, '10:00', timeZone));
  const afterCutoff = () => clock.set(cutoffInstant(today, '17:01', timeZone));
  beforeEach(beforeCutoff);

  const schedule = (who: PayingCustomer, body: object, key: string = randomUUID(), headers: Record<string, string> = {}) =>
    who.browser.request({ method: 'POST', url: '/api/v1/scheduled-payments', payload: body, headers: { 'idempotency-key': key, ...headers } });
  const toSavings = (who: PayingCustomer, amountCents = 1_000) => ownTransfer(who.checking.id, who.savings.id, amountCents, 'Savings');

  describe('making a schedule', () => {
    it('schedules a payment once on a Saturday: paid the business day before, and the answer says so', async () => {
      const dana = await kit.customer();
      const response = await schedule(dana, { payment: toSavings(dana), startDate: saturdayAfter, frequency: 'once' });
      expect(response.statusCode, response.body).toBe(201);
      const { schedule: made } = response.json();
      const paidOn = onOrBeforeBusinessDay(saturdayAfter);
      expect(made).toMatchObject({ status: 'active', frequency: 'once', startDate: saturdayAfter, next: [paidOn] });
      expect(made.upcoming).toEqual([{ date: paidOn, dueDate: saturdayAfter, arrivesBy: paidOn, changeable: true }]);
      // The recipient comes back as the body named it, so the web's Edit can show the form filled in.
      expect(made.payment).toEqual({ kind: 'own', fromAccountId: dana.checking.id, amountCents: 1_000, message: 'Savings', toAccountId: dana.savings.id });
      expect(made.description).toBe('Savings');
    });

    it('schedules weekly payments on business days, each due date a week apart', async () => {
      const dana = await kit.customer();
      const response = await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'weekly' });
      expect(response.statusCode, response.body).toBe(201);
      const expected = [0, 1, 2, 3, 4].map((week) => onOrBeforeBusinessDay(addDays(today, 7 * week)));
      expect(response.json().schedule.next).toEqual(expected);
      for (const occurrence of response.json().schedule.upcoming) expect(isBusinessDay(occurrence.date)).toBe(true);
    });

    it('pays a monthly 31st on the last day of shorter months, or the business day before it', async () => {
      const dana = await kit.customer();
      const response = await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'monthly', dayOfMonth: 31, count: 12 });
      expect(response.statusCode, response.body).toBe(201);
      const { next, upcoming } = response.json().schedule;
      expect(next).toHaveLength(5);
      // Every month's 31st, or its last day (the 30th, Feb 28 or 29), moved back to a business day.
      for (const date of next) expect(date).toBe(lastBusinessDayOfMonth(date));
      for (const occurrence of upcoming) {
        const [year = 0, month = 0] = occurrence.date.split('-').map(Number);
        expect(occurrence.dueDate).toBe(new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10));
      }
    });

    it('today after the cut-off: the first payment goes the next business day', async () => {
      afterCutoff();
      const dana = await kit.customer();
      const response = await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'once' });
      expect(response.statusCode, response.body).toBe(201);
      const next = nextBusinessDay(today);
      expect(response.json().schedule.next).toEqual([next]);
      expect(response.json().schedule.upcoming[0]).toMatchObject({ date: next, dueDate: today, changeable: true });
    });

    it('replays the same Idempotency-Key with the same schedule, and refuses it with another body', async () => {
      const dana = await kit.customer();
      const key = randomUUID();
      const body = { payment: toSavings(dana), startDate: today, frequency: 'monthly' };
      const first = await schedule(dana, body, key);
      expect(first.statusCode, first.body).toBe(201);
      const again = await schedule(dana, body, key);
      expect(again.statusCode).toBe(201);
      expect(again.json().schedule.id).toBe(first.json().schedule.id);
      const other = await schedule(dana, { ...body, frequency: 'weekly' }, key);
      expect(other.statusCode).toBe(422);
      expect(other.json().error.code).toBe('idempotency_key_reused');
      expect((await dana.browser.get('/api/v1/scheduled-payments')).json().items).toHaveLength(1);
    });
  });

  describe('bad input', () => {
    const fieldOf = (response: { statusCode: number; json: () => { error: { code: string; fields?: Record<string, string> } } }, field: string) => {
      expect(response.statusCode).toBe(400);
      return response.json().error.fields?.[field];
    };

    it('refuses a date in the past, a date beyond a year, an end date and a count together, and a card payment', async () => {
      const dana = await kit.customer();
      const payment = toSavings(dana);
      expect(fieldOf(await schedule(dana, { payment, startDate: addDays(today, -1), frequency: 'once' }), 'startDate')).toBe(scheduleMessages.startInPast);
      const tooFar = addDays(today, maxScheduleDaysAhead + 1);
      expect(fieldOf(await schedule(dana, { payment, startDate: tooFar, frequency: 'once' }), 'startDate')).toBe(scheduleMessages.tooFarAhead);
      expect(fieldOf(await schedule(dana, { payment, startDate: today, frequency: 'weekly', endDate: tooFar }), 'endDate')).toBe(scheduleMessages.tooFarAhead);
      expect(fieldOf(await schedule(dana, { payment, startDate: today, frequency: 'weekly', endDate: addDays(today, 30), count: 3 }), 'count')).toBe(
        scheduleMessages.endDateOrCount,
      );
      const card = { kind: 'card', fromAccountId: dana.checking.id, cardNumber: '4111111111111111', accountName: 'Dana', amountCents: 1_000, message: 'x' };
      expect(fieldOf(await schedule(dana, { payment: card, startDate: today, frequency: 'once' }), 'payment.kind')).toBe(scheduleMessages.cardNotSchedulable);
      // The largest payment the bank takes at all: there is no other amount limit on a transfer (review rules hold, they do not refuse).
      const tooLarge = await schedule(dana, { payment: toSavings(dana, maxPaymentCents + 1), startDate: today, frequency: 'once' });
      expect(fieldOf(tooLarge, 'payment.amountCents')).toBe(validationMessages.amountTooLarge);
      const withoutKey = await dana.browser.post('/api/v1/scheduled-payments', { payment, startDate: today, frequency: 'once' });
      expect(withoutKey.statusCode).toBe(400);
      expect((await dana.browser.get('/api/v1/scheduled-payments')).json().items).toEqual([]);
    });

    it("refuses another customer's account as the payment's source, as POST /transfers does", async () => {
      const dana = await kit.customer();
      const eve = await kit.customer();
      const response = await schedule(eve, { payment: toSavings(dana), startDate: today, frequency: 'once' });
      expect(response.statusCode).toBe(404);
    });

    it('refuses a frozen customer', async () => {
      const dana = await kit.customer();
      const staff = await createTestStaff(database(), config, 'compliance');
      await database().query('INSERT INTO customer_freezes (customer_id, frozen_by, reason) VALUES ($1, $2, $3)', [dana.id, staff.id, 'Test freeze']);
      const response = await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'once' });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('account_frozen');
    });
  });

  describe('another customer', () => {
    it("answers another customer's schedule exactly like a missing one, on every route", async () => {
      const dana = await kit.customer();
      const eve = await kit.customer();
      const body = { payment: toSavings(dana), startDate: today, frequency: 'weekly' };
      const id = (await schedule(dana, body)).json().schedule.id;
      const missing = randomUUID();
      const eveBody = { payment: toSavings(eve), startDate: today, frequency: 'weekly' };
      const tries = (target: string) => [
        eve.browser.get(`/api/v1/scheduled-payments/${target}`),
        eve.browser.put(`/api/v1/scheduled-payments/${target}`, eveBody),
        eve.browser.post(`/api/v1/scheduled-payments/${target}/skip`, { date: today }),
        eve.browser.request({ method: 'DELETE', url: `/api/v1/scheduled-payments/${target}` }),
      ];
      const theirs = await Promise.all(tries(id));
      const nobodys = await Promise.all(tries(missing));
      theirs.forEach((response, index) => {
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json().error).toEqual({ ...nobodys[index]?.json().error, requestId: response.json().error.requestId });
      });
      expect((await eve.browser.get('/api/v1/scheduled-payments')).json().items).toEqual([]);
      expect((await eve.browser.get('/api/v1/scheduled-payments/upcoming')).json().items).toEqual([]);
      const untouched = (await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json();
      expect(untouched.schedule).toMatchObject({ status: 'active', payment: { amountCents: 1_000 } });
      expect(untouched.occurrences.every((occurrence: { status: string }) => occurrence.status === 'scheduled')).toBe(true);
    });
  });

  describe('edit, skip and cancel until the cut-off', () => {
    it('skips an occurrence before its cut-off, answers the same when asked again, and refuses a date with none', async () => {
      const dana = await kit.customer();
      const id = (await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'weekly' })).json().schedule.id;
      const skipped = await dana.browser.post(`/api/v1/scheduled-payments/${id}/skip`, { date: today });
      expect(skipped.statusCode, skipped.body).toBe(200);
      expect(skipped.json().schedule.next[0]).toBe(onOrBeforeBusinessDay(addDays(today, 7)));
      expect((await dana.browser.post(`/api/v1/scheduled-payments/${id}/skip`, { date: today })).statusCode).toBe(200);
      const none = await dana.browser.post(`/api/v1/scheduled-payments/${id}/skip`, { date: addDays(today, 1) });
      expect(none.statusCode).toBe(422);
      expect(none.json().error.code).toBe('not_an_occurrence');
      const detail = (await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json();
      expect(detail.occurrences[0]).toEqual({ date: today, status: 'skipped', reason: 'Skipped by you' });
      expect((await dana.browser.get('/api/v1/scheduled-payments/upcoming')).json().items.map((item: { date: string }) => item.date)).not.toContain(today);
    });

    it('edits every occurrence whose cut-off has not passed', async () => {
      const dana = await kit.customer();
      const id = (await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'weekly' })).json().schedule.id;
      const edited = await dana.browser.put(`/api/v1/scheduled-payments/${id}`, { payment: toSavings(dana, 2_500), startDate: today, frequency: 'monthly' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().schedule).toMatchObject({ frequency: 'monthly', payment: { amountCents: 2_500 } });
      expect(edited.json().schedule.next[0]).toBe(today);
    });

    it('an edit that pays a new payee asks for the step-up, as a new schedule would', async () => {
      const dana = await kit.customer();
      const payee = await kit.customer();
      const id = (await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'weekly' })).json().schedule.id;
      const toPayee = {
        payment: {
          kind: 'internal',
          fromAccountId: dana.checking.id,
          toAccountNumber: payee.checking.number,
          accountName: 'Demo Customer',
          amountCents: 1_200,
          message: 'Rent',
        },
        startDate: today,
        frequency: 'weekly',
      };
      const key = randomUUID();
      const edit = (headers: Record<string, string>) =>
        dana.browser.request({ method: 'PUT', url: `/api/v1/scheduled-payments/${id}`, payload: toPayee, headers: { 'idempotency-key': key, ...headers } });
      const asked = await edit({});
      expect(asked.statusCode).toBe(403);
      expect(asked.json().error.code).toBe('step_up_required');
      expect((await dana.browser.get(`/api/v1/scheduled-payments/${id}`)).json().schedule.payment.kind).toBe('own');
      await kit.verifyLatestCode(dana, asked.json().error.challengeId);
      const edited = await edit({ 'x-step-up': asked.json().error.challengeId });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().schedule.payment).toMatchObject({ kind: 'internal', amountCents: 1_200, toAccountNumber: toPayee.payment.toAccountNumber });
    });

    it('after the cut-off: skip, edit and cancel of that day answer 409 past_cutoff; a cancelled schedule has ended', async () => {
      const dana = await kit.customer();
      const once = (await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'once' })).json().schedule.id;
      const weekly = (await schedule(dana, { payment: toSavings(dana), startDate: today, frequency: 'weekly' })).json().schedule.id;
      afterCutoff();
      const skip = await dana.browser.post(`/api/v1/scheduled-payments/${once}/skip`, { date: today });
      expect(skip.statusCode).toBe(409);
      expect(skip.json().error.code).toBe('past_cutoff');
      const edit = await dana.browser.put(`/api/v1/scheduled-payments/${once}`, {
        payment: toSavings(dana, 5_000),
        startDate: nextBusinessDay(today),
        frequency: 'once',
      });
      expect(edit.json().error.code).toBe('past_cutoff');
      const cancel = await dana.browser.request({ method: 'DELETE', url: `/api/v1/scheduled-payments/${once}` });
      expect(cancel.statusCode).toBe(409);
      expect(cancel.json().error.code).toBe('past_cutoff');

      // The weekly series: today's payment still goes as it was; the rest is cancelled.
      const cancelled = await dana.browser.request({ method: 'DELETE', url: `/api/v1/scheduled-payments/${weekly}` });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json().schedule.status).toBe('cancelled');
      expect(cancelled.json().schedule.upcoming).toEqual([{ date: today, dueDate: today, arrivesBy: today, changeable: false }]);
      const afterwards = await dana.browser.put(`/api/v1/scheduled-payments/${weekly}`, {
        payment: toSavings(dana),
        startDate: nextBusinessDay(today),
        frequency: 'weekly',
      });
      expect(afterwards.statusCode).toBe(409);
      expect(afterwards.json().error.code).toBe('schedule_ended');
      const skipAfterwards = await dana.browser.post(`/api/v1/scheduled-payments/${weekly}/skip`, { date: nextBusinessDay(today) });
      expect(skipAfterwards.json().error.code).toBe('schedule_ended');
    });
  });
});
