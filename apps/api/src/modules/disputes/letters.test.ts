import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { lastMessageTo, type TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { readablePdfText } from '../../test/pdf-text.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { toolMissing } from '../../test/statements.ts';
import { disputeLetterMailJobKind, recordLetter, type LetterFacts } from './letters.ts';

const noPdfText = toolMissing('pdftotext');

describeEachDatabase("a dispute's letters: recorded once, told by email, read as PDFs by their customer and by staff (issue 34 item 4)", (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));
  let compliance: { browser: TestBrowser; member: { id: string } };
  let support: { browser: TestBrowser; member: { id: string } };

  beforeAll(async () => {
    compliance = await staffBrowser(app, database(), config, 'operations');
    support = await staffBrowser(app, database(), config, 'support');
  });

  /** A dispute of one of the customer's payments, inserted as POST /disputes would (the case only: no money). */
  async function disputeOf(customer: PayingCustomer, paymentNumber = 0): Promise<string> {
    const payments = await database().query<{ id: string; account_id: string; amount_cents: bigint }>(
      `SELECT id, coalesce(from_account_id, to_account_id) AS account_id, amount_cents FROM payments WHERE customer_id = $1 ORDER BY created_at, id`,
      [customer.id],
    );
    const payment = payments[paymentNumber];
    if (!payment) throw new Error(`customer ${customer.id} has no payment ${paymentNumber}`);
    const id = randomUUID();
    await database().query(
      `INSERT INTO disputes (id, customer_id, payment_id, account_id, reason, description, status, amount_cents, received_on, provisional_credit_by, resolve_by, new_account, point_of_sale)
       VALUES ($1, $2, $3, $4, 'unauthorized', 'I did not make this payment at all.', 'submitted', $5, '2026-11-23', '2026-12-07', '2027-01-07', false, false)`,
      [id, customer.id, payment.id, payment.account_id, payment.amount_cents],
    );
    return id;
  }

  const facts: LetterFacts = {
    customerName: 'Ada Lovelace',
    bankName: 'Strongroom Bank',
    date: '2026-11-23',
    transaction: { description: 'Card purchase at Corner Coffee', amountCents: '4250', date: '2026-11-18' },
    reason: 'I did not make or allow this',
    receivedOn: '2026-11-23',
    provisionalCreditBy: '2026-12-07',
    resolveBy: '2027-01-07',
  };

  async function emailOf(customer: PayingCustomer): Promise<string> {
    const [row] = await database().query<{ email: string }>('SELECT email FROM customers WHERE id = $1', [customer.id]);
    if (!row) throw new Error('no customer');
    return row.email;
  }

  async function lettersOf(disputeId: string): Promise<{ id: string; kind: string }[]> {
    return database().query('SELECT id, kind FROM dispute_letters WHERE dispute_id = $1 ORDER BY created_at, kind', [disputeId]);
  }

  async function mailJobsFor(letterIds: readonly string[]): Promise<number> {
    const [row] = await database().query<{ count: number }>(
      `SELECT count(*)::int AS count FROM jobs WHERE kind = $1 AND payload->>'letterId' = ANY($2::text[])`,
      [disputeLetterMailJobKind, letterIds],
    );
    return row?.count ?? 0;
  }

  async function runJobs(): Promise<void> {
    for (let round = 0; round < 10; round += 1) if ((await app.services.jobs.runOnce()) === 0) return;
  }

  it('records a letter once per kind: a second call returns the first id, keeps the first facts and queues no second email', async () => {
    const ada = await kit.customer({ firstName: 'Ada', lastName: 'Lovelace' });
    const disputeId = await disputeOf(ada);
    const first = await database().transaction((tx) => recordLetter(tx, { disputeId, customerId: ada.id, kind: 'acknowledgement', facts }));
    const second = await database().transaction((tx) =>
      recordLetter(tx, { disputeId, customerId: ada.id, kind: 'acknowledgement', facts: { ...facts, date: '2026-11-24' } }),
    );
    expect(second).toBe(first);
    expect(await lettersOf(disputeId)).toEqual([{ id: first, kind: 'acknowledgement' }]);
    const [stored] = await database().query<{ facts: LetterFacts }>('SELECT facts FROM dispute_letters WHERE id = $1', [first]);
    expect(stored?.facts.date).toBe('2026-11-23');
    expect(await mailJobsFor([first])).toBe(1);

    // Another kind is another letter, with its own email.
    const credit = await database().transaction((tx) =>
      recordLetter(tx, { disputeId, customerId: ada.id, kind: 'provisional_credit', facts: { ...facts, date: '2026-12-07', provisionalCreditCents: '4250' } }),
    );
    expect(credit).not.toBe(first);
    expect(await mailJobsFor([first, credit])).toBe(2);
  });

  it("is written in the caller's transaction: a rolled-back step leaves no letter and no email", async () => {
    const ada = await kit.customer();
    const disputeId = await disputeOf(ada);
    await expect(
      database().transaction(async (tx) => {
        await recordLetter(tx, { disputeId, customerId: ada.id, kind: 'acknowledgement', facts });
        throw new Error('the step failed after the letter');
      }),
    ).rejects.toThrow('the step failed after the letter');
    expect(await lettersOf(disputeId)).toEqual([]);
    const [queued] = await database().query<{ count: number }>(`SELECT count(*)::int AS count FROM jobs WHERE kind = $1 AND payload->>'to' = $2`, [
      disputeLetterMailJobKind,
      await emailOf(ada),
    ]);
    expect(queued?.count).toBe(0);
  });

  it('refuses a letter without the facts its kind needs, recording nothing', async () => {
    const ada = await kit.customer();
    const disputeId = await disputeOf(ada);
    await expect(database().transaction((tx) => recordLetter(tx, { disputeId, customerId: ada.id, kind: 'provisional_credit', facts }))).rejects.toThrow(
      /provisionalCreditCents/,
    );
    expect(await lettersOf(disputeId)).toEqual([]);
  });

  it('emails the customer "A letter about your dispute": where to read it, no attachment, no link', async () => {
    const grace = await kit.customer({ firstName: 'Grace', lastName: 'Hopper' });
    const disputeId = await disputeOf(grace);
    await database().transaction((tx) => recordLetter(tx, { disputeId, customerId: grace.id, kind: 'acknowledgement', facts }));
    await runJobs();
    const mail = await lastMessageTo(database(), await emailOf(grace));
    expect(mail?.subject).toBe('A letter about your dispute');
    expect(mail?.text).toContain('Hello Grace,');
    expect(mail?.text).toContain('sign in to online banking and open Disputes, then the dispute');
    expect(mail?.text).toContain(config.bankName);
    expect(mail?.text).not.toMatch(/https?:|www\.|token/i);
  });

  it('gives the customer their letter as a PDF; another customer, another dispute or a malformed id answers 404 exactly like a missing letter', async () => {
    const ada = await kit.customer({ savingsCents: 1_000 });
    const mallory = await kit.customer();
    const disputeId = await disputeOf(ada, 0);
    const otherDisputeId = await disputeOf(ada, 1);
    const letterId = await database().transaction((tx) => recordLetter(tx, { disputeId, customerId: ada.id, kind: 'acknowledgement', facts }));

    const mine = await ada.browser.get(`/api/v1/disputes/${disputeId}/letters/${letterId}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.headers['content-type']).toBe('application/pdf');
    expect(mine.headers['content-disposition']).toBe('attachment; filename="dispute-letter-acknowledgement-2026-11-23.pdf"');
    expect(mine.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    if (!noPdfText) {
      const text = readablePdfText(mine.rawPayload).replace(/\s+/g, ' ');
      expect(text).toContain('We received your notice of an error on November 23, 2026.');
      expect(text).toContain('Dear Ada Lovelace,');
    }

    const missing = await ada.browser.get(`/api/v1/disputes/${disputeId}/letters/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    const { code, message } = missing.json<{ error: { code: string; message: string } }>().error;
    expect(code).toBe('not_found');
    const asked: [PayingCustomer, string][] = [
      [mallory, `/api/v1/disputes/${disputeId}/letters/${letterId}`],
      [ada, `/api/v1/disputes/${randomUUID()}/letters/${letterId}`],
      [ada, `/api/v1/disputes/${otherDisputeId}/letters/${letterId}`],
      [ada, `/api/v1/disputes/not-an-id/letters/${letterId}`],
      [ada, `/api/v1/disputes/${disputeId}/letters/not-an-id`],
    ];
    for (const [who, url] of asked) {
      const answer = await who.browser.get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json<{ error: { code: string; message: string } }>().error, url).toMatchObject({ code, message });
    }
    const anonymous = await app.inject({ method: 'GET', url: `/api/v1/disputes/${disputeId}/letters/${letterId}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('gives staff with disputes.manage the same PDF, audited; support is refused 403, audited', async () => {
    const ada = await kit.customer();
    const disputeId = await disputeOf(ada);
    const letterId = await database().transaction((tx) =>
      recordLetter(tx, {
        disputeId,
        customerId: ada.id,
        kind: 'result',
        facts: { ...facts, date: '2026-12-10', decision: 'denied', explanation: 'The charge matches your signed receipt.' },
      }),
    );
    const url = `/api/v1/staff/disputes/${disputeId}/letters/${letterId}`;

    const seen = await compliance.browser.get(url);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.headers['content-type']).toBe('application/pdf');
    if (!noPdfText) expect(readablePdfText(seen.rawPayload).replace(/\s+/g, ' ')).toContain('Our explanation: The charge matches your signed receipt.');
    const viewed = await database().query<{ actor_id: string; details: Record<string, string> }>(
      `SELECT actor_id, details FROM audit_log WHERE action = 'dispute.letter_viewed' AND subject = $1`,
      [disputeId],
    );
    expect(viewed).toEqual([{ actor_id: compliance.member.id, details: { letterId, kind: 'result' } }]);

    expect((await compliance.browser.get(`/api/v1/staff/disputes/${disputeId}/letters/${randomUUID()}`)).statusCode).toBe(404);

    const refused = await support.browser.get(url);
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('forbidden');
    const denied = await database().query<{ outcome: string }>(`SELECT outcome FROM audit_log WHERE action = 'staff.permission_denied' AND actor_id = $1`, [
      support.member.id,
    ]);
    expect(denied).toEqual([{ outcome: 'denied' }]);

    // A customer's session is not a staff session.
    expect((await ada.browser.get(url)).statusCode).toBe(401);
  });
});
