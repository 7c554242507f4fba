import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { noMonthlyStatementsText, percentOfBps } from '@strongroom/contracts/monthly-statements.ts';
import type { Config } from '../../config.ts';
import { addDays, nextBusinessDay } from '../../platform/business-calendar.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { runEndOfDay } from '../end-of-day/run.ts';
import { ownTransfer, paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { hledgerBalanceCents, ofxdump, parseCsv, pdfText, todayIn, toolMissing } from '../../test/statements.ts';
import { csvHeader } from './csv.ts';
import { statementReadyMailJobKind } from './monthly-notices.ts';
import { moveBankMoney, writeStatementLikeEndOfDay, type FixtureStatement } from '../../test/monthly-statements.ts';

const bankTimeZone = 'America/New_York';

function lastDayOf(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
}

function previousMonth(month: string): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, monthNumber - 2, 1)).toISOString().slice(0, 7);
}

/**
 * Issue 32 item 6: monthly statements. Until the end-of-day job writes them, the rows come from
 * writeStatementLikeEndOfDay (a test fixture that sums the ledger as the job does).
 */
describeEachDatabase('monthly statements', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant', BANK_TIME_ZONE: bankTimeZone } });

  describe('two months of an account', () => {
    let dana: PayingCustomer;
    let first: FixtureStatement;
    let second: FixtureStatement;
    const thisMonth = todayIn(bankTimeZone).slice(0, 7);
    const lastMonth = previousMonth(thisMonth);
    const periods = {
      first: { start: `${lastMonth}-01`, end: lastDayOf(lastMonth) },
      second: { start: `${thisMonth}-01`, end: lastDayOf(thisMonth) },
    };
    const file = (statementId: string, format: string, accountId = dana.checking.id, who = dana) =>
      who.browser.get(`/api/v1/accounts/${accountId}/statements/${statementId}?format=${format}`);

    beforeAll(async () => {
      dana = await kit.customer({ fundCents: 50_000n, firstName: 'Dana', lastName: 'Demo' });
      await moveBankMoney(database(), dana.id, dana.checking.id, 'interest', 50n);
      first = await writeStatementLikeEndOfDay(database(), {
        customerId: dana.id,
        accountId: dana.checking.id,
        periodStart: periods.first.start,
        periodEnd: periods.first.end,
        feeNote: 'Waived: the daily balance never fell below $1,500.00',
      });
      const deposit = await kit.pay(dana, '/deposits', {
        accountId: dana.checking.id,
        fundingSourceId: dana.fundingSourceId,
        amountCents: 20_000,
        reason: 'Paycheck',
      });
      expect(deposit.statusCode, deposit.body).toBe(201);
      await kit.runJobs();
      const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 5_000, 'To savings'));
      expect(moved.statusCode, moved.body).toBe(201);
      await moveBankMoney(database(), dana.id, dana.checking.id, 'interest', 123n);
      await moveBankMoney(database(), dana.id, dana.checking.id, 'fee', 695n);
      // A deposit still pending is in the sequence range but moves no balance: not a line.
      const pending = await kit.pay(dana, '/deposits', {
        accountId: dana.checking.id,
        fundingSourceId: dana.fundingSourceId,
        amountCents: 7_000,
        reason: 'Not cleared',
      });
      expect(pending.statusCode, pending.body).toBe(201);
      second = await writeStatementLikeEndOfDay(database(), {
        customerId: dana.id,
        accountId: dana.checking.id,
        periodStart: periods.second.start,
        periodEnd: periods.second.end,
        feeNote: 'Charged: the daily balance fell below $1,500.00 and deposits were under $500.00',
      });
    });

    it('lists the statements newest first with their figures', async () => {
      const response = await dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statements`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        items: [
          {
            id: second.id,
            periodStart: periods.second.start,
            periodEnd: periods.second.end,
            openingBalanceCents: 50_050,
            closingBalanceCents: 64_478,
            interestCents: 123,
            feesCents: 695,
            apyEarnedBps: second.apyEarnedBps,
            feeNote: 'Charged: the daily balance fell below $1,500.00 and deposits were under $500.00',
          },
          {
            id: first.id,
            periodStart: periods.first.start,
            periodEnd: periods.first.end,
            openingBalanceCents: 0,
            closingBalanceCents: 50_050,
            interestCents: 50,
            feesCents: 0,
            apyEarnedBps: first.apyEarnedBps,
            feeNote: 'Waived: the daily balance never fell below $1,500.00',
          },
        ],
      });
      expect(second.apyEarnedBps).toBeGreaterThan(0);
      const savings = await dana.browser.get(`/api/v1/accounts/${dana.savings.id}/statements`);
      expect(savings.json()).toEqual({ items: [] });
    });

    it('writes the CSV: the lines of the sequence range, posted only, with running balances that hledger asserts to the closing balance', async () => {
      const response = await file(second.id, 'csv');
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="statement-${dana.checking.number}-${periods.second.start}-${periods.second.end}.csv"`,
      );
      const [header, ...rows] = parseCsv(response.body);
      expect(header?.join(',')).toBe(csvHeader);
      expect(rows.map((row) => row.slice(2))).toEqual([
        ['Paycheck', 'Deposit', '200.00', '700.50'],
        ['To savings', 'Transfer', '-50.00', '650.50'],
        ['Interest paid', 'Interest', '1.23', '651.73'],
        ['Monthly maintenance fee', 'Fee', '-6.95', '644.78'],
      ]);
      expect(response.body).not.toContain('Not cleared');
      if (!toolMissing('hledger')) {
        expect(hledgerBalanceCents(response.body, 50_050n, periods.second.start)).toBe(64_478n);
        expect(() => hledgerBalanceCents(response.body, 50_051n, periods.second.start)).toThrow(/balance assertion/);
      }
    });

    it.skipIf(toolMissing('pdftotext'))(
      'prints Regulation DD contents in the PDF: period, balances, lines, APY earned, interest and fees, and the tie-out',
      async () => {
        const response = await file(second.id, 'pdf');
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        expect(response.headers['content-disposition']).toBe(
          `attachment; filename="statement-${dana.checking.number}-${periods.second.start}-${periods.second.end}.pdf"`,
        );
        const text = pdfText(response.rawPayload);
        const year = periods.second.end.slice(0, 4);
        const sameYear = periods.first.end.slice(0, 4) === year;
        for (const words of ['Dana Demo', dana.checking.number, `Statement period ${periods.second.start} to ${periods.second.end}`])
          expect(text).toContain(words);
        expect(text).toMatch(new RegExp(`Opening balance on ${periods.second.start}\\s+\\$500\\.50`));
        expect(text).toMatch(/Credits \(money in\)\s+\$201\.23/);
        expect(text).toMatch(/Debits \(money out\)\s+-\$56\.95/);
        expect(text).toMatch(new RegExp(`Closing balance on ${periods.second.end}\\s+\\$644\\.78`));
        expect(text).toContain('Opening balance + credits - debits = closing balance: $500.50 + $201.23 - $56.95 = $644.78');
        expect(text).toMatch(new RegExp(`Annual percentage yield earned\\s+${percentOfBps(second.apyEarnedBps).replace('.', '\\.')}`));
        expect(percentOfBps(second.apyEarnedBps)).toMatch(/^\d+\.\d{2}%$/);
        expect(text).toMatch(/Interest earned this period\s+\$1\.23/);
        expect(text).toMatch(new RegExp(`Interest earned this year \\(${year}\\)\\s+\\$${sameYear ? '1\\.73' : '1\\.23'}`));
        expect(text).toMatch(/Total fees this period\s+\$6\.95/);
        expect(text).toMatch(new RegExp(`Total fees this year \\(${year}\\)\\s+\\$6\\.95`));
        expect(text).toContain('Monthly maintenance fee: Charged: the daily balance fell below $1,500.00 and deposits were under $500.00');
        for (const line of [
          /Paycheck\s+Deposit\s+\$200\.00\s+\$700\.50/,
          /To savings\s+Transfer\s+-\$50\.00\s+\$650\.50/,
          /Interest paid\s+Interest\s+\$1\.23\s+\$651\.73/,
        ])
          expect(text).toMatch(line);
        // The fee is a line of the table (with its running balance) and again under Fees.
        expect(text.match(/Monthly maintenance fee\s+Fee\s+-\$6\.95/g)).toHaveLength(2);
        expect(text).toMatch(/Monthly maintenance fee\s+Fee\s+-\$6\.95\s+\$644\.78/);
        expect(text).toContain('4 completed transactions in this period.');
        expect(text).not.toContain('Not cleared');

        const earlier = pdfText((await file(first.id, 'pdf')).rawPayload);
        expect(earlier).toContain('No fee was charged in this period.');
        expect(earlier).toContain('Monthly maintenance fee: Waived: the daily balance never fell below $1,500.00');
        expect(earlier).toContain(`Opening balance + credits - debits = closing balance: $0.00 + $500.50 - $0.00 = $500.50`);
      },
    );

    it.skipIf(toolMissing('ofxdump'))(
      'writes OFX that LibOFX reads: the period as DTSTART and DTEND, the same lines, LEDGERBAL the closing balance',
      async () => {
        const response = await file(second.id, 'ofx');
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('application/x-ofx');
        const ofx = response.body;
        const [bounds] = await database().query<{ starts: Date; ends: Date }>(
          `SELECT ($1::date)::timestamp AT TIME ZONE $3 AS starts, ($2::date + 1)::timestamp AT TIME ZONE $3 AS ends`,
          [periods.second.start, periods.second.end, bankTimeZone],
        );
        const ofxStamp = (date: Date) => `${date.toISOString().replace(/[-:T]/g, '').replace('Z', '')}[0:GMT]`;
        expect(ofx).toContain(`<DTSTART>${ofxStamp(bounds!.starts)}</DTSTART><DTEND>${ofxStamp(bounds!.ends)}</DTEND>`);
        expect([...ofx.matchAll(/<TRNAMT>([^<]+)<\/TRNAMT>/g)].map((match) => match[1])).toEqual(['200.00', '-50.00', '1.23', '-6.95']);
        expect(ofx).toContain('<LEDGERBAL><BALAMT>644.78</BALAMT>');
        const dump = ofxdump(ofx);
        expect(dump.status, dump.stderr).toBe(0);
        expect(dump.stderr).not.toContain('ERROR');
        expect(dump.stdout).toContain('Ledger balance: 644.78');
        expect(dump.stdout.match(/Total money amount: /g)).toHaveLength(4);
      },
    );

    it("answers another customer's account, another account's statement and a mangled id exactly like a missing one", async () => {
      const mallory = await kit.customer();
      const notFound = async (who: PayingCustomer, url: string) => {
        const response = await who.browser.get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.json().error.code, url).toBe('not_found');
        return response.json().error.message as string;
      };
      const missingAccount = await notFound(mallory, `/api/v1/accounts/00000000-0000-4000-8000-00000000ffff/statements`);
      expect(await notFound(mallory, `/api/v1/accounts/${dana.checking.id}/statements`)).toBe(missingAccount);
      expect(await notFound(mallory, `/api/v1/accounts/not-an-id/statements`)).toBe(missingAccount);
      const missingStatement = await notFound(dana, `/api/v1/accounts/${dana.checking.id}/statements/00000000-0000-4000-8000-00000000ffff?format=pdf`);
      expect(await notFound(mallory, `/api/v1/accounts/${dana.checking.id}/statements/${second.id}?format=pdf`)).toBe(missingStatement);
      expect(await notFound(mallory, `/api/v1/accounts/${mallory.checking.id}/statements/${second.id}?format=csv`)).toBe(missingStatement);
      expect(await notFound(dana, `/api/v1/accounts/${dana.savings.id}/statements/${second.id}?format=ofx`)).toBe(missingStatement);
      expect(await notFound(dana, `/api/v1/accounts/${dana.checking.id}/statements/not-an-id?format=ofx`)).toBe(missingStatement);
      const unsigned = await app.inject({ method: 'GET', url: `/api/v1/accounts/${dana.checking.id}/statements` });
      expect(unsigned.statusCode).toBe(401);
      const badFormat = await dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statements/${second.id}?format=xlsx`);
      expect(badFormat.statusCode).toBe(400);
    });

    it('tells the customer once per statement: a notification and an email "Your statement is ready"', async () => {
      const notifications = (await dana.browser.get('/api/v1/notifications')).json().items as Array<{ kind: string; name: string; text: string; link: string }>;
      const told = notifications.filter((item) => item.kind === 'statement');
      expect(told).toHaveLength(2);
      expect(
        told.every(
          (item) =>
            item.name === 'Your statement is ready' && item.link === `/transaction-history?statementAccount=${dana.checking.id}#monthly-statements-title`,
        ),
      ).toBe(true);
      expect(told.map((item) => item.text).join('\n')).toContain(
        `(${new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${periods.second.start}T00:00:00Z`))} to`,
      );

      const [{ email } = { email: '' }] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [dana.id]);
      const jobs = await database().query<{ payload: { statementId: string } }>(`SELECT payload FROM jobs WHERE kind = $1 AND payload->>'to' = $2`, [
        statementReadyMailJobKind,
        email,
      ]);
      expect(jobs.map((job) => job.payload.statementId).sort()).toEqual([first.id, second.id].sort());
      for (let round = 0; round < 20; round += 1) if ((await app.services.jobs.runOnce()) === 0) break;
      const mail = await database().query<{ subject: string; text_body: string }>(
        "SELECT subject, text_body FROM outbox_messages WHERE channel = 'email' AND to_address = $1 AND subject = 'Your statement is ready' ORDER BY sequence",
        [email],
      );
      expect(mail).toHaveLength(2);
      expect(mail[1]?.text_body).toContain('Hello Dana,');
      expect(mail[1]?.text_body).toContain(`is ready. It covers`);
      expect(mail[1]?.text_body).not.toMatch(/token|password=/i);
    });

    it("keeps a closed account's statements", async () => {
      // Fixture: the account-closing flow is another part of issue 32; closing here is the column the migration defines.
      await database().query(`UPDATE customer_accounts SET status = 'closed', closed_at = now() WHERE id = $1`, [dana.savings.id]);
      const savingsStatement = await writeStatementLikeEndOfDay(database(), {
        customerId: dana.id,
        accountId: dana.savings.id,
        periodStart: periods.second.start,
        periodEnd: periods.second.end,
      });
      const list = await dana.browser.get(`/api/v1/accounts/${dana.savings.id}/statements`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().items.map((item: { id: string; closingBalanceCents: number }) => [item.id, item.closingBalanceCents])).toEqual([
        [savingsStatement.id, 5_000],
      ]);
      const csv = await file(savingsStatement.id, 'csv', dana.savings.id);
      expect(
        parseCsv(csv.body)
          .slice(1)
          .map((row) => row.slice(2)),
      ).toEqual([['To savings', 'Credit', '50.00', '50.00']]);
    });
  });

  it('answers an account with no statement yet with an empty list (the web says: ' + noMonthlyStatementsText + ')', async () => {
    const erin = await kit.customer();
    const response = await erin.browser.get(`/api/v1/accounts/${erin.checking.id}/statements`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ items: [] });
  });

  it('prints the APY earned as a percentage with two decimals', () => {
    expect([0, 5, 123, 617, 10_000].map(percentOfBps)).toEqual(['0.00%', '0.05%', '1.23%', '6.17%', '100.00%']);
    expect(formatMoney(695n)).toBe('$6.95');
  });
});

/** The end-of-day job's own statements (modules/end-of-day), not the fixture's: a sandbox run through this month's end. */
describeEachDatabase('monthly statements written by the end-of-day job', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', BANK_TIME_ZONE: bankTimeZone } });

  it('lists, prints and exports the statement of a sandbox end of day through the month end, and tells the customer once', async () => {
    const dana = await kit.customer({ fundCents: 300_000n, savingsCents: 200_000, firstName: 'Dana', lastName: 'Demo' });
    const monthEnd = lastDayOf(todayIn(bankTimeZone).slice(0, 7));
    // End of day runs on business days: a month ending on a weekend or a holiday is closed by the
    // next business day's run (a run through Sunday the 28th stops at Friday the 26th).
    const closingDay = nextBusinessDay(addDays(monthEnd, -1));
    await runEndOfDay({ db: database(), config, liveEvents: app.services.liveEvents }, closingDay);

    for (const account of [dana.checking, dana.savings]) {
      const list = await dana.browser.get(`/api/v1/accounts/${account.id}/statements`);
      expect(list.statusCode, list.body).toBe(200);
      const items = list.json().items as Array<{
        id: string;
        periodStart: string;
        periodEnd: string;
        openingBalanceCents: number;
        closingBalanceCents: number;
        interestCents: number;
        feesCents: number;
        apyEarnedBps: number;
      }>;
      expect(items).toHaveLength(1);
      const [statement] = items;
      if (!statement) throw new Error('no statement');
      expect(statement.periodEnd).toBe(monthEnd);
      const [row] = await database().query<{ credits_cents: bigint; debits_cents: bigint; interest_year_cents: bigint; fees_year_cents: bigint }>(
        'SELECT credits_cents, debits_cents, interest_year_cents, fees_year_cents FROM monthly_statements WHERE id = $1',
        [statement.id],
      );
      if (!row) throw new Error('no row');

      const csv = await dana.browser.get(`/api/v1/accounts/${account.id}/statements/${statement.id}?format=csv`);
      expect(csv.statusCode, csv.body).toBe(200);
      const lines = parseCsv(csv.body).slice(1);
      expect(lines.some((line) => line[3] === 'Interest')).toBe(statement.interestCents > 0);
      expect(lines.some((line) => line[2] === 'Monthly maintenance fee')).toBe(statement.feesCents > 0);
      expect(lines.at(-1)?.[5]).toBe(formatMoney(statement.closingBalanceCents, 'decimal'));
      if (!toolMissing('hledger'))
        expect(hledgerBalanceCents(csv.body, BigInt(statement.openingBalanceCents), statement.periodStart)).toBe(BigInt(statement.closingBalanceCents));

      if (!toolMissing('pdftotext')) {
        const text = pdfText((await dana.browser.get(`/api/v1/accounts/${account.id}/statements/${statement.id}?format=pdf`)).rawPayload);
        expect(text).toContain(`Statement period ${statement.periodStart} to ${statement.periodEnd}`);
        expect(text).toContain(
          `Opening balance + credits - debits = closing balance: ${formatMoney(statement.openingBalanceCents)} + ${formatMoney(row.credits_cents)} - ${formatMoney(row.debits_cents)} = ${formatMoney(statement.closingBalanceCents)}`,
        );
        expect(text).toMatch(new RegExp(`Annual percentage yield earned\\s+${percentOfBps(statement.apyEarnedBps).replace('.', '\\.')}`));
        expect(text).toMatch(new RegExp(`Interest earned this period\\s+\\${formatMoney(statement.interestCents)}`));
        expect(text).toMatch(new RegExp(`Interest earned this year \\(\\d{4}\\)\\s+\\${formatMoney(row.interest_year_cents)}`));
        expect(text).toMatch(new RegExp(`Total fees this period\\s+\\${formatMoney(statement.feesCents)}`));
        expect(text).toMatch(new RegExp(`Total fees this year \\(\\d{4}\\)\\s+\\${formatMoney(row.fees_year_cents)}`));
      }
      if (!toolMissing('ofxdump')) {
        const dump = ofxdump((await dana.browser.get(`/api/v1/accounts/${account.id}/statements/${statement.id}?format=ofx`)).body);
        expect(dump.status, dump.stderr).toBe(0);
        expect(dump.stdout).toContain(`Ledger balance: ${formatMoney(statement.closingBalanceCents, 'decimal')}`);
      }
    }
    const savingsInterest = (await dana.browser.get(`/api/v1/accounts/${dana.savings.id}/statements`)).json().items[0].interestCents as number;
    expect(savingsInterest, 'savings earns interest').toBeGreaterThan(0);

    const told = await database().query<{ n: number }>(`SELECT count(*)::int AS n FROM notifications WHERE customer_id = $1 AND kind = 'statement'`, [dana.id]);
    expect(told[0]?.n).toBe(2);
    // A second run through the same day writes no statement and tells nobody again.
    await runEndOfDay({ db: database(), config, liveEvents: app.services.liveEvents }, closingDay);
    const mails = await database().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE kind = $1 AND payload->>'statementId' IN (SELECT id::text FROM monthly_statements WHERE customer_id = $2)`,
      [statementReadyMailJobKind, dana.id],
    );
    expect(mails[0]?.n).toBe(2);
  });
});
