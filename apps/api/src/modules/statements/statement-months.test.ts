import { expect, it } from 'vitest';
import { statementMonthsOffered } from '@strongroom/contracts/transactions.ts';
import { testAppSuite } from '../../test/suite.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { todayIn } from '../../test/statements.ts';

const bankTimeZone = 'America/New_York';

/** YYYY-MM of the month `back` months before `today` (YYYY-MM-DD). */
function monthBefore(today: string, back: number): string {
  const [year = 0, month = 0] = today.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1 - back, 1)).toISOString().slice(0, 7);
}

describeEachDatabase('the months a statement can cover', (database) => {
  const kit = paymentKit(testAppSuite(database, () => undefined, { environment: { BANK_TIMEZONE: bankTimeZone } }));

  /** Opens the account on `day` (YYYY-MM-DD) at `time` in the bank's time zone, as if it had been opened then. */
  async function openedOn(who: PayingCustomer, accountId: string, day: string, time = '12:00'): Promise<void> {
    await database().query(`UPDATE customer_accounts SET opened_at = ($1::date + $2::time) AT TIME ZONE $3 WHERE id = $4 AND customer_id = $5`, [
      day,
      time,
      bankTimeZone,
      accountId,
      who.id,
    ]);
  }

  const months = (who: PayingCustomer, accountId: string) => who.browser.get(`/api/v1/accounts/${accountId}/statement/months`);

  it('offers this month back to the month the account opened, newest first, and no month before it', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const today = todayIn(bankTimeZone);
    await openedOn(dana, dana.checking.id, `${monthBefore(today, 2)}-28`);
    const response = await months(dana, dana.checking.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ months: [monthBefore(today, 0), monthBefore(today, 1), monthBefore(today, 2)] });
  });

  it('offers only this month for an account opened this month', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    expect((await months(dana, dana.savings.id)).json()).toEqual({ months: [todayIn(bankTimeZone).slice(0, 7)] });
  });

  it('takes the opening month in the bank’s time zone: late on the last evening of a month is that month in New York', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const today = todayIn(bankTimeZone);
    const lastDayOfMonthBefore = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1, 0)).toISOString().slice(0, 10);
    // 23:30 in New York is the next day, the first of this month, in UTC.
    await openedOn(dana, dana.checking.id, lastDayOfMonthBefore, '23:30');
    expect((await months(dana, dana.checking.id)).json()).toEqual({ months: [monthBefore(today, 0), monthBefore(today, 1)] });
  });

  it('offers at most the months the picker names, for an account opened long ago', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const today = todayIn(bankTimeZone);
    await openedOn(dana, dana.checking.id, `${monthBefore(today, statementMonthsOffered + 6)}-01`);
    const offered: string[] = (await months(dana, dana.checking.id)).json().months;
    expect(offered).toHaveLength(statementMonthsOffered);
    expect(offered.at(-1)).toBe(monthBefore(today, statementMonthsOffered - 1));
  });

  it('answers another customer’s account exactly like a missing one', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const mallory = await kit.customer({ fundCents: 0n });
    const theirs = await months(mallory, dana.checking.id);
    const missing = await months(mallory, '00000000-0000-4000-8000-000000000000');
    const malformed = await months(mallory, 'not-an-account');
    for (const response of [theirs, missing, malformed]) {
      expect(response.statusCode).toBe(404);
      expect({ ...response.json().error, requestId: undefined }).toEqual({ code: 'not_found', message: 'No such account', requestId: undefined });
    }
  });
});
