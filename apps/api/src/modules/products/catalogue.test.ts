import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { addDays } from '../../platform/business-calendar.ts';
import type { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { staffBrowser } from '../../test/staff.ts';
import { testAppSuite } from '../../test/suite.ts';

/** Appendix A's APY for monthly compounding, worked out here in floating point, independently of apy.ts. */
function appendixAApyBps(rateBps: number): number {
  return Math.round(((1 + rateBps / 10_000 / 12) ** 12 - 1) * 10_000);
}

const standardSavings = '00000000-0000-4000-8000-00000000d004';
const goldChecking = '00000000-0000-4000-8000-00000000d002';

interface ListedProduct {
  id: string;
  code: string;
  name: string;
  monthlyFeeCents: number;
  openingDepositCents: number;
  interestRateBps: number;
  apyBps: number;
  waiverText: string;
  tiers: { fromCents: number; rateBps: number; apyBps: number }[];
  effectiveFrom: string;
  upcoming: { effectiveFrom: string; monthlyFeeCents: number; interestRateBps: number; apyBps: number } | null;
}

/** A valid change of Standard Savings' terms, with what a test overrides. */
function savingsChange(effectiveFrom: string, overrides: Record<string, unknown> = {}) {
  return {
    effectiveFrom,
    monthlyFeeCents: 0,
    waiverMinDailyBalanceCents: null,
    waiverMonthlyDepositsCents: null,
    openingDepositCents: 50_000,
    tiers: [
      { fromCents: 0, rateBps: 175 },
      { fromCents: 1_000_000, rateBps: 200 },
    ],
    reason: 'Market rates went up this quarter',
    ...overrides,
  };
}

describeEachDatabase('the product catalogue and its effective-dated changes (issue 32 item 1)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  let admin: TestBrowser;
  let adminId: string;
  testAppSuite(database, (built) => ({ app, config } = built));

  beforeAll(async () => {
    const signedIn = await staffBrowser(app, database(), config, 'admin');
    admin = signedIn.browser;
    adminId = signedIn.member.id;
  });

  async function products(): Promise<ListedProduct[]> {
    const response = await app.inject({ method: 'GET', url: '/api/v1/products' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: ListedProduct[] }>().items;
  }

  async function bankDate(): Promise<string> {
    return (await app.inject({ method: 'GET', url: '/api/v1/calendar/today' })).json<{ businessDate: string }>().businessDate;
  }

  function schedule(browser: TestBrowser, productId: string, body: object) {
    return browser.request({ method: 'POST', url: `/api/v1/staff/products/${productId}/terms`, payload: body });
  }

  it('GET /products, without a session, answers the seed six with their fees, opening deposits, rates and Appendix A APYs', async () => {
    const items = await products();
    expect(items.map((item) => [item.code, item.name, item.monthlyFeeCents, item.openingDepositCents, item.interestRateBps])).toEqual([
      ['easy-checking', 'Easy Checking', 695, 0, 0],
      ['gold-checking', 'Gold Checking', 1_495, 0, 5],
      ['platinum-checking', 'Platinum Checking', 2_495, 0, 10],
      ['standard-savings', 'Standard Savings', 0, 50_000, 150],
      ['platinum-select-money-market-savings', 'Platinum Select Money Market Savings', 0, 250_000, 200],
      ['package-money-market-savings', 'Package Money Market Savings', 0, 500_000, 250],
    ]);
    for (const item of items) {
      expect(item.apyBps).toBe(appendixAApyBps(item.interestRateBps));
      for (const tier of item.tiers) expect(tier.apyBps).toBe(appendixAApyBps(tier.rateBps));
      expect(item.upcoming).toBeNull();
    }
    // Appendix A's own example: 6% compounded monthly is an APY of 6.17%; the seed's savings rates give these.
    expect(items.slice(3).map((item) => item.apyBps)).toEqual([151, 202, 253]);
    expect(items.find((item) => item.code === 'package-money-market-savings')?.tiers).toEqual([
      { fromCents: 0, rateBps: 250, apyBps: 253 },
      { fromCents: 2_500_000, rateBps: 300, apyBps: 304 },
    ]);
    expect(items[0]?.waiverText).toBe(
      'No monthly fee when you keep at least $1,500 in the account at the end of every day of the month, or deposit at least $500 in the month.',
    );
  });

  it('an administrator schedules new terms: listed as upcoming, audited with the reason and the terms before and after; the same date again replaces them', async () => {
    const tomorrow = addDays(await bankDate(), 1);
    const first = await schedule(admin, standardSavings, savingsChange(tomorrow));
    expect(first.statusCode, first.body).toBe(201);
    const terms = first.json<{ product: { terms: { effectiveFrom: string; state: string; tiers: { rateBps: number }[]; reason: string }[] } }>().product.terms;
    expect(terms.map((row) => [row.effectiveFrom, row.state])).toEqual([
      ['2000-01-01', 'current'],
      [tomorrow, 'scheduled'],
    ]);

    const listed = (await products()).find((item) => item.id === standardSavings);
    expect(listed).toMatchObject({ interestRateBps: 150, upcoming: { effectiveFrom: tomorrow, interestRateBps: 175, apyBps: appendixAApyBps(175) } });

    const replaced = await schedule(admin, standardSavings, savingsChange(tomorrow, { tiers: [{ fromCents: 0, rateBps: 180 }], reason: 'Typo: it is 1.80%' }));
    expect(replaced.statusCode, replaced.body).toBe(201);
    const [, scheduled, ...more] = replaced.json<{ product: { terms: { tiers: { rateBps: number }[]; reason: string }[] } }>().product.terms;
    expect(more).toEqual([]);
    expect(scheduled).toMatchObject({ tiers: [{ rateBps: 180 }], reason: 'Typo: it is 1.80%' });

    const audits = await database().query<{ actor_id: string; details: Record<string, string | boolean> }>(
      "SELECT actor_id, details FROM audit_log WHERE action = 'product.terms_scheduled' AND subject = $1 ORDER BY id",
      [standardSavings],
    );
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({
      actor_id: adminId,
      details: { reason: 'Market rates went up this quarter', effectiveFrom: tomorrow, replacedScheduled: false },
    });
    expect(JSON.parse(String(audits[0]?.details.before))).toMatchObject({ effectiveFrom: '2000-01-01', tiers: [{ fromCents: 0, rateBps: 150 }] });
    expect(JSON.parse(String(audits[0]?.details.after))).toMatchObject({ effectiveFrom: tomorrow, tiers: [{ rateBps: 175 }, { rateBps: 200 }] });
    expect(audits[1]?.details).toMatchObject({ reason: 'Typo: it is 1.80%', replacedScheduled: true });
    expect(JSON.parse(String(audits[1]?.details.before))).toMatchObject({ tiers: [{ rateBps: 175 }, { rateBps: 200 }] });
  });

  it('a change dated on or before the bank date is refused with effective_date_in_past, and nothing is written', async () => {
    const today = await bankDate();
    for (const day of [today, addDays(today, -1), '2000-01-01']) {
      const refused = await schedule(admin, goldChecking, { ...savingsChange(day), monthlyFeeCents: 1_995, tiers: [{ fromCents: 0, rateBps: 5 }] });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error).toMatchObject({ code: 'effective_date_in_past', fields: { effectiveFrom: `choose a date after ${today}` } });
    }
    const [count] = await database().query<{ n: number }>('SELECT count(*)::int AS n FROM deposit_product_terms WHERE product_id = $1', [goldChecking]);
    expect(count?.n).toBe(1);
    expect((await products()).find((item) => item.id === goldChecking)?.monthlyFeeCents).toBe(1_495);
  });

  it.each([
    ['a negative rate', { tiers: [{ fromCents: 0, rateBps: -1 }] }, 'tiers.0.rateBps', 'a rate cannot be negative'],
    ['a rate over 100%', { tiers: [{ fromCents: 0, rateBps: 10_001 }] }, 'tiers.0.rateBps', 'a rate cannot be over 100%'],
    ['a negative fee', { monthlyFeeCents: -1 }, 'monthlyFeeCents', 'the monthly fee cannot be negative'],
    ['a negative opening deposit', { openingDepositCents: -500 }, 'openingDepositCents', 'the opening deposit cannot be negative'],
    ['a negative waiver balance', { waiverMinDailyBalanceCents: -1 }, 'waiverMinDailyBalanceCents', 'the minimum daily balance cannot be negative'],
    ['a fractional fee', { monthlyFeeCents: 1.5 }, 'monthlyFeeCents', 'the monthly fee is a whole number of cents'],
    ['tiers not from 0', { tiers: [{ fromCents: 100, rateBps: 100 }] }, 'tiers.0.fromCents', 'the first tier starts at a balance of $0'],
    [
      'tiers not ascending',
      {
        tiers: [
          { fromCents: 0, rateBps: 100 },
          { fromCents: 0, rateBps: 200 },
        ],
      },
      'tiers.1.fromCents',
      'each tier starts at a higher balance than the one before',
    ],
    ['no tier', { tiers: [] }, 'tiers', 'give at least one interest tier'],
    ['no reason', { reason: '' }, 'reason', undefined],
    ['a reason too short', { reason: 'up' }, 'reason', 'the reason needs at least 3 characters'],
    ['no date', { effectiveFrom: '2027-02-30' }, 'effectiveFrom', 'enter the date the new terms take effect (YYYY-MM-DD)'],
  ])('%s is refused with 400 and a message for the field', async (_name, overrides, field, message) => {
    const tomorrow = addDays(await bankDate(), 1);
    const refused = await schedule(admin, goldChecking, savingsChange(tomorrow, overrides));
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.code).toBe('validation_failed');
    const fields = refused.json<{ error: { fields: Record<string, string> } }>().error.fields;
    if (message) expect(fields[field]).toBe(message);
    else expect(fields[field]).toBeTruthy();
  });

  it('an unknown product answers 404', async () => {
    const refused = await schedule(admin, '00000000-0000-4000-8000-00000000d0ff', savingsChange(addDays(await bankDate(), 2)));
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('not_found');
  });

  it('support and operations may not read or edit products: 403 forbidden, audited, and nothing changes', async () => {
    for (const role of ['support', 'operations', 'compliance'] as const) {
      const { browser, member } = await staffBrowser(app, database(), config, role);
      expect((await browser.get('/api/v1/staff/products')).statusCode).toBe(403);
      const refused = await schedule(browser, goldChecking, savingsChange(addDays(await bankDate(), 3)));
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('forbidden');
      const denied = await database().query<{ details: { permission: string } }>(
        "SELECT details FROM audit_log WHERE actor_id = $1 AND action = 'staff.permission_denied'",
        [member.id],
      );
      expect(denied.map((row) => row.details.permission)).toEqual(['products.edit', 'products.edit']);
    }
    expect((await products()).find((item) => item.id === goldChecking)?.upcoming).toBeNull();
  });

  it('a scheduled change takes effect on its date: when end of day has run to it (the time machine), the catalogue shows the new terms', async () => {
    const today = await bankDate();
    const inAWeek = addDays(today, 7);
    const change = await schedule(admin, goldChecking, {
      ...savingsChange(inAWeek),
      monthlyFeeCents: 1_995,
      waiverMinDailyBalanceCents: 600_000,
      waiverMonthlyDepositsCents: null,
      openingDepositCents: 0,
      tiers: [{ fromCents: 0, rateBps: 10 }],
      reason: 'Gold Checking costs more from next week',
    });
    expect(change.statusCode, change.body).toBe(201);
    expect((await products()).find((item) => item.id === goldChecking)).toMatchObject({
      monthlyFeeCents: 1_495,
      upcoming: { effectiveFrom: inAWeek, monthlyFeeCents: 1_995, interestRateBps: 10 },
    });

    // The day before: still the old terms.
    await database().query("INSERT INTO business_days (day, covers_from, status, finished_at) VALUES ($1, $1, 'done', now())", [addDays(inAWeek, -1)]);
    expect(await bankDate()).toBe(addDays(inAWeek, -1));
    expect((await products()).find((item) => item.id === goldChecking)?.monthlyFeeCents).toBe(1_495);

    await database().query("INSERT INTO business_days (day, covers_from, status, finished_at) VALUES ($1, $1, 'done', now())", [inAWeek]);
    expect(await bankDate()).toBe(inAWeek);
    expect((await app.inject({ method: 'GET', url: '/api/v1/products' })).json<{ asOf: string }>().asOf).toBe(inAWeek);
    const gold = (await products()).find((item) => item.id === goldChecking);
    expect(gold).toMatchObject({
      monthlyFeeCents: 1_995,
      interestRateBps: 10,
      apyBps: appendixAApyBps(10),
      effectiveFrom: inAWeek,
      upcoming: null,
      waiverText: 'No monthly fee when you keep at least $6,000 in the account at the end of every day of the month.',
    });
    const staffView = (await admin.get('/api/v1/staff/products')).json<{ bankDate: string; items: { id: string; terms: { state: string }[] }[] }>();
    expect(staffView.bankDate).toBe(inAWeek);
    expect(staffView.items.find((item) => item.id === goldChecking)?.terms.map((row) => row.state)).toEqual(['past', 'current']);
    // Now in force, it can no longer be changed: that would rewrite the past.
    const late = await schedule(admin, goldChecking, { ...savingsChange(inAWeek), tiers: [{ fromCents: 0, rateBps: 5 }] });
    expect(late.statusCode).toBe(422);
  });
});
