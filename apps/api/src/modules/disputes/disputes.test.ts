import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDisputeEvidenceBytes } from '@strongroom/contracts/disputes.ts';
import type { Config } from '../../config.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { addBusinessDays, addDays, isBusinessDay } from '../../platform/business-calendar.ts';
import { cardSuite } from '../../test/cards.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { ownTransfer, type PayingCustomer } from '../../test/payments.ts';
import { createTestStaff } from '../../test/staff.ts';

/**
 * Issue 34 items 1-2: a customer reports a transaction, reads the case, withdraws it, answers the
 * bank's question and sends evidence (PRODUCT.md section 7 "Disputes"). Deadlines are checked
 * against the business calendar counted here, not against deadlines.ts.
 */
function onOrBeforeBusinessDay(day: string): string {
  let date = day;
  while (!isBusinessDay(date)) date = addDays(date, -1);
  return date;
}

const description = 'I do not recognise this payment at all.';

describeEachDatabase('disputes: the customer reports a transaction (issue 34)', (database) => {
  let config: Config;
  const kit = cardSuite(database, (built) => ({ config } = built));
  let billerId: string;

  beforeAll(async () => {
    billerId = randomUUID();
    await database().query(
      `INSERT INTO billers (id, name, category, account_number_pattern, account_number_example, payment_method, routing_number, account_number)
       VALUES ($1, 'City Water', 'water', '\\d{10}', '1234567890', 'ach', '011000015', '4002008100')`,
      [billerId],
    );
  });

  const report = (who: PayingCustomer, body: object) => who.browser.post('/api/v1/disputes', { reason: 'not_received', description, ...body });
  /** The account opened long ago: no new account's longer limits. */
  const ageAccount = (accountId: string) => database().query(`UPDATE customer_accounts SET opened_at = now() - interval '90 days' WHERE id = $1`, [accountId]);
  const today = () => bankDate(database(), config);

  /** A debit card purchase of `amountCents` on a new active card: the purchase's payment id and the card's id. */
  async function cardPurchase(who: PayingCustomer, amountCents = 4_200): Promise<{ transferId: string; cardId: string }> {
    const card = await kit.activeCard(who);
    const revealed = await kit.reveal(who, card.id);
    const authorization = await kit.purchase(revealed, amountCents);
    expect(authorization.status).toBe('approved');
    return { transferId: authorization.id, cardId: card.id };
  }

  async function transferOut(who: PayingCustomer, amountCents = 2_500): Promise<string> {
    const response = await kit.payOtherBank(who, { toAccountNumber: '123456789', accountName: 'Grace Landlord', amountCents, message: 'Rent' });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().transfer.id;
  }

  describe('reporting', () => {
    it('reports a card purchase: 201 with the deadlines of a point-of-sale transaction (10 business days, 90 days)', async () => {
      const dana = await kit.customer();
      await ageAccount(dana.checking.id);
      const { transferId } = await cardPurchase(dana);
      const response = await report(dana, { transferId });
      expect(response.statusCode, response.body).toBe(201);
      const receivedOn = await today();
      expect(response.json().dispute).toMatchObject({
        status: 'submitted',
        transferId,
        reason: 'not_received',
        amountCents: 4_200,
        transaction: { kind: 'card', description: 'Corner Grocer', amountCents: -4_200 },
        receivedOn,
        provisionalCreditBy: addBusinessDays(receivedOn, 10),
        resolveBy: onOrBeforeBusinessDay(addDays(receivedOn, 90)),
        provisionalCreditCents: 0,
        reversalOn: null,
        cardReplaced: false,
      });
    });

    it("reports a transfer out of a new account: a new account's 20 business days and 90 days", async () => {
      const dana = await kit.customer();
      const transferId = await transferOut(dana);
      const response = await report(dana, { transferId, reason: 'wrong_amount' });
      expect(response.statusCode, response.body).toBe(201);
      const receivedOn = await today();
      expect(response.json().dispute).toMatchObject({
        transferId,
        transaction: { kind: 'external', amountCents: -2_500 },
        provisionalCreditBy: addBusinessDays(receivedOn, 20),
        resolveBy: onOrBeforeBusinessDay(addDays(receivedOn, 90)),
      });
    });

    it('reports a transfer out of an older account: 10 business days and 45 days', async () => {
      const dana = await kit.customer();
      await ageAccount(dana.checking.id);
      const transferId = await transferOut(dana);
      const response = await report(dana, { transferId });
      expect(response.statusCode, response.body).toBe(201);
      const receivedOn = await today();
      expect(response.json().dispute).toMatchObject({
        provisionalCreditBy: addBusinessDays(receivedOn, 10),
        resolveBy: onOrBeforeBusinessDay(addDays(receivedOn, 45)),
      });
    });

    it('reports a bill payment, described as history describes it', async () => {
      const dana = await kit.customer();
      const payee = await dana.browser.post('/api/v1/bill-payees', { billerId, accountNumber: '5550004821', nickname: 'Water' });
      expect(payee.statusCode, payee.body).toBe(201);
      const paid = await kit.payWithStepUp(dana, '/transfers', {
        kind: 'bill',
        fromAccountId: dana.checking.id,
        billPayeeId: payee.json().payee.id,
        amountCents: 6_000,
      });
      expect(paid.statusCode, paid.body).toBe(201);
      const response = await report(dana, { transferId: paid.json().transfer.id, reason: 'duplicate' });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().dispute.transaction).toMatchObject({
        kind: 'bill',
        description: 'Bill payment to City Water, account ending 4821',
        amountCents: -6_000,
      });
    });

    it("answers another customer's payment exactly like a missing one (404)", async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const transferId = await transferOut(dana);
      const theirs = await report(mallory, { transferId });
      const missing = await report(mallory, { transferId: randomUUID() });
      expect(theirs.statusCode).toBe(404);
      const { requestId: _theirs, ...theirError } = theirs.json().error;
      const { requestId: _missing, ...missingError } = missing.json().error;
      expect(theirError).toEqual(missingError);
      expect((await mallory.browser.get('/api/v1/disputes')).json().items).toEqual([]);
      const audit = await database().query<{ actor_id: string; outcome: string }>(
        `SELECT actor_id, outcome FROM audit_log WHERE action = 'dispute.submitted' AND subject = $1`,
        [transferId],
      );
      expect(audit).toEqual([{ actor_id: mallory.id, outcome: 'denied' }]);
    });

    it('refuses a second report of one payment (409 already_disputed), and takes it again once the first is withdrawn', async () => {
      const dana = await kit.customer();
      const transferId = await transferOut(dana);
      const first = await report(dana, { transferId });
      expect(first.statusCode, first.body).toBe(201);
      const second = await report(dana, { transferId });
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('already_disputed');
      const withdrawn = await dana.browser.post(`/api/v1/disputes/${first.json().dispute.id}/withdraw`);
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(withdrawn.json().dispute.status).toBe('withdrawn');
      const again = await report(dana, { transferId });
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json().dispute.id).not.toBe(first.json().dispute.id);
    });

    it('lets two reports of one payment at once make one dispute: the other is 409 already_disputed', async () => {
      const dana = await kit.customer();
      const transferId = await transferOut(dana);
      const answers = await Promise.all([report(dana, { transferId }), report(dana, { transferId })]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
      expect(answers.find((answer) => answer.statusCode === 409)?.json().error.code).toBe('already_disputed');
      const [count] = await database().query<{ n: number }>(`SELECT count(*)::integer AS n FROM disputes WHERE payment_id = $1`, [transferId]);
      expect(count?.n).toBe(1);
    });

    it('takes a report from a customer whose account staff froze: a dispute moves no money', async () => {
      const dana = await kit.customer();
      const transferId = await transferOut(dana);
      const staff = await createTestStaff(database(), config, 'compliance');
      await database().query('INSERT INTO customer_freezes (customer_id, frozen_by, reason) VALUES ($1, $2, $3)', [dana.id, staff.id, 'Test freeze']);
      const response = await report(dana, { transferId });
      expect(response.statusCode, response.body).toBe(201);
    });

    it('refuses money in (422 not_disputable) but takes a deposit that came in short', async () => {
      const dana = await kit.customer();
      const ada = await kit.customer();
      const paid = await kit.payCustomer(ada, dana, { accountName: 'Demo Customer', amountCents: 1_500, message: 'Lunch' });
      expect(paid.statusCode, paid.body).toBe(201);
      const moneyIn = await report(dana, { transferId: paid.json().transfer.id });
      expect(moneyIn.statusCode).toBe(422);
      expect(moneyIn.json().error).toMatchObject({ code: 'not_disputable', message: expect.stringContaining('came into your account') });

      const deposit = await kit.pay(dana, '/deposits', {
        accountId: dana.checking.id,
        fundingSourceId: dana.fundingSourceId,
        amountCents: 10_000,
        reason: 'Top up',
      });
      expect(deposit.statusCode, deposit.body).toBe(201);
      const depositId = deposit.json().transfer.id;
      const notShort = await report(dana, { transferId: depositId, reason: 'unauthorized' });
      expect(notShort.statusCode).toBe(422);
      expect(notShort.json().error).toMatchObject({ code: 'not_disputable', message: expect.stringContaining('came in short') });
      const short = await report(dana, { transferId: depositId, reason: 'wrong_amount' });
      expect(short.statusCode, short.body).toBe(201);
      expect(short.json().dispute.transaction).toMatchObject({ kind: 'deposit', amountCents: 10_000 });
    });

    it('refuses a move between own accounts and the bank-own opening deposit (422 not_disputable, saying why)', async () => {
      const dana = await kit.customer();
      const moved = await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 1_000, 'Savings'));
      expect(moved.statusCode, moved.body).toBe(201);
      const own = await report(dana, { transferId: moved.json().transfer.id });
      expect(own.statusCode).toBe(422);
      expect(own.json().error).toMatchObject({ code: 'not_disputable', message: expect.stringContaining('your own accounts') });
      const [opening] = await database().query<{ id: string }>(`SELECT id FROM payments WHERE to_account_id = $1 AND kind = 'funding'`, [dana.checking.id]);
      const funding = await report(dana, { transferId: opening?.id, reason: 'wrong_amount' });
      expect(funding.statusCode).toBe(422);
      expect(funding.json().error).toMatchObject({ code: 'not_disputable', message: expect.stringContaining('opening deposit') });
    });

    it('refuses a payment reported past the window (422 dispute_window_passed), naming the day it closed', async () => {
      const dana = await kit.customer();
      const transferId = await transferOut(dana);
      await database().query(`UPDATE payments SET created_at = now() - interval '150 days' WHERE id = $1`, [transferId]);
      const response = await report(dana, { transferId });
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe('dispute_window_passed');
      expect(response.json().error.message).toMatch(/ended on \d{4}-\d{2}-\d{2}/);
    });

    it('freezes an unauthorized card and orders a replacement in the same step; replaceCard on a transfer is a field error', async () => {
      const dana = await kit.customer();
      const { transferId, cardId } = await cardPurchase(dana);
      const response = await report(dana, { transferId, reason: 'unauthorized', replaceCard: true });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().dispute.cardReplaced).toBe(true);
      const cards = (await dana.browser.get('/api/v1/cards')).json();
      const list = (Array.isArray(cards) ? cards : (cards.items ?? cards.cards)) as { id: string; status: string }[];
      expect(list.find((card) => card.id === cardId)?.status).toBe('frozen');
      expect(list.filter((card) => card.id !== cardId).map((card) => card.status)).toEqual(['pending_approval']);
      const detail = (await dana.browser.get(`/api/v1/disputes/${response.json().dispute.id}`)).json();
      expect(detail.events.map((event: { kind: string }) => event.kind)).toEqual(['submitted', 'card_replaced']);

      const transfer = await transferOut(dana);
      const refused = await report(dana, { transferId: transfer, reason: 'unauthorized', replaceCard: true });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.replaceCard).toEqual(expect.any(String));
    });
  });

  describe('the case', () => {
    it('lists newest first and shows the detail: visible events, the acknowledgement letter, a notification and the audit entry', async () => {
      const dana = await kit.customer();
      const first = await report(dana, { transferId: await transferOut(dana, 1_000) });
      const second = await report(dana, { transferId: await transferOut(dana, 2_000) });
      const ids = [second.json().dispute.id, first.json().dispute.id];
      const list = await dana.browser.get('/api/v1/disputes');
      expect(list.json().items.map((item: { id: string }) => item.id)).toEqual(ids);
      await database().query(`INSERT INTO dispute_events (dispute_id, kind, text, visible) VALUES ($1, 'decision_proposed', 'staff only', false)`, [ids[0]]);
      const detail = await dana.browser.get(`/api/v1/disputes/${ids[0]}`);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json().events).toEqual([{ kind: 'submitted', text: expect.stringContaining('We received your report'), at: expect.any(String) }]);
      expect(detail.json().letters).toEqual([{ id: expect.any(String), kind: 'acknowledgement', createdAt: expect.any(String) }]);
      expect(detail.json().evidence).toEqual([]);
      const notifications = (await dana.browser.get('/api/v1/notifications')).json().items as { kind: string; link: string | null }[];
      expect(notifications.filter((item) => item.kind === 'dispute').map((item) => item.link)).toEqual(ids.map((id) => `/disputes/${id}`));
      const audit = await database().query<{ action: string; actor_id: string }>(`SELECT action, actor_id FROM audit_log WHERE subject = $1`, [ids[0]]);
      expect(audit).toEqual([{ action: 'dispute.submitted', actor_id: dana.id }]);
    });

    it("answers another customer's dispute 404 on every route, like a missing one", async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const id = (await report(dana, { transferId: await transferOut(dana) })).json().dispute.id;
      for (const target of [id, randomUUID(), 'not-an-id']) {
        expect((await mallory.browser.get(`/api/v1/disputes/${target}`)).statusCode).toBe(404);
        expect((await mallory.browser.post(`/api/v1/disputes/${target}/withdraw`)).statusCode).toBe(404);
        expect((await mallory.browser.post(`/api/v1/disputes/${target}/information`, { text: 'Here is what happened to me.' })).statusCode).toBe(404);
        expect((await mallory.browser.get(`/api/v1/disputes/${target}/evidence/${randomUUID()}`)).statusCode).toBe(404);
      }
      expect((await dana.browser.get(`/api/v1/disputes/${id}`)).json().dispute.status).toBe('submitted');
    });

    it('takes an answer only when the bank asked (409 otherwise), and refuses withdrawing a decided case', async () => {
      const dana = await kit.customer();
      const id = (await report(dana, { transferId: await transferOut(dana) })).json().dispute.id;
      const unasked = await dana.browser.post(`/api/v1/disputes/${id}/information`, { text: 'Here is what happened to me.' });
      expect(unasked.statusCode).toBe(409);
      expect(unasked.json().error.code).toBe('dispute_state');
      await database().query(`INSERT INTO dispute_events (dispute_id, kind, text) VALUES ($1, 'information_requested', 'Did you share your card?')`, [id]);
      const answered = await dana.browser.post(`/api/v1/disputes/${id}/information`, { text: 'No, the card never left my wallet.' });
      expect(answered.statusCode, answered.body).toBe(200);
      expect(answered.json().events.at(-1)).toMatchObject({ kind: 'information_given', text: 'No, the card never left my wallet.' });
      const twice = await dana.browser.post(`/api/v1/disputes/${id}/information`, { text: 'And once more, just in case.' });
      expect(twice.statusCode).toBe(409);

      await database().query(`UPDATE disputes SET status = 'denied', decision = 'denied', decided_at = now() WHERE id = $1`, [id]);
      const withdraw = await dana.browser.post(`/api/v1/disputes/${id}/withdraw`);
      expect(withdraw.statusCode).toBe(409);
      expect(withdraw.json().error.code).toBe('dispute_state');
    });
  });

  describe('evidence', () => {
    const boundary = 'strongroom-dispute-boundary';
    const multipart = (bytes: Buffer, fileName: string, contentType: string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const send = (who: PayingCustomer, id: string, bytes: Buffer, fileName: string, contentType: string) =>
      who.browser.request({
        method: 'POST',
        url: `/api/v1/disputes/${id}/evidence`,
        payload: multipart(bytes, fileName, contentType),
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

    it('takes a PNG and a PDF (201), stores them outside the database and serves them to their owner as attachments', async () => {
      const dana = await kit.customer();
      const mallory = await kit.customer();
      const id = (await report(dana, { transferId: await transferOut(dana) })).json().dispute.id;
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 90, b: 200 } } })
        .png()
        .toBuffer();
      const image = await send(dana, id, png, 'receipt.png', 'image/png');
      expect(image.statusCode, image.body).toBe(201);
      expect(image.json().evidence).toMatchObject({ contentType: 'image/png', fileName: 'evidence-1.png' });
      const document = await send(dana, id, pdf, 'letter.pdf', 'application/pdf');
      expect(document.statusCode, document.body).toBe(201);
      expect(document.json().evidence).toMatchObject({ contentType: 'application/pdf', byteSize: pdf.length });

      const detail = (await dana.browser.get(`/api/v1/disputes/${id}`)).json();
      expect(detail.evidence).toHaveLength(2);
      expect(detail.events.map((event: { kind: string }) => event.kind)).toEqual(['submitted', 'evidence_added', 'evidence_added']);
      const served = await dana.browser.get(`/api/v1/disputes/${id}/evidence/${document.json().evidence.id}`);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['content-disposition']).toMatch(/^attachment; filename="evidence-2\.pdf"$/);
      expect(served.rawPayload.equals(pdf)).toBe(true);
      const stored = await database().query<{ storage_key: string }>(`SELECT storage_key FROM dispute_evidence WHERE dispute_id = $1`, [id]);
      expect(stored).toHaveLength(2);
      expect((await mallory.browser.get(`/api/v1/disputes/${id}/evidence/${document.json().evidence.id}`)).statusCode).toBe(404);
    });

    it('refuses a text file named .png (415) and a file over the limit (413)', async () => {
      const dana = await kit.customer();
      const id = (await report(dana, { transferId: await transferOut(dana) })).json().dispute.id;
      const text = await send(dana, id, Buffer.from('this is only text, not an image at all'), 'photo.png', 'image/png');
      expect(text.statusCode).toBe(415);
      expect(text.json().error.code).toBe('unsupported_media_type');
      const large = await send(dana, id, Buffer.concat([pdf, Buffer.alloc(maxDisputeEvidenceBytes)]), 'big.pdf', 'application/pdf');
      expect(large.statusCode).toBe(413);
      expect(large.json().error.code).toBe('payload_too_large');
      expect((await dana.browser.get(`/api/v1/disputes/${id}`)).json().evidence).toEqual([]);
    });
  });
});
