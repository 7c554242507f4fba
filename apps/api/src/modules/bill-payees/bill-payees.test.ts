import { randomUUID } from 'node:crypto';
import nacha from '@midlandsbank/node-nacha';
import type { FastifyInstance } from 'fastify';
import { unzipSync } from 'fflate';
import { beforeAll, expect, it } from 'vitest';
import { neutralFreezeCustomerMessage } from '@strongroom/contracts/staff-customers.ts';
import type { Config } from '../../config.ts';
import { decrypt } from '../../platform/crypto.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { todayIn } from '../../test/statements.ts';
import { buildAchFile, exportAchCreditsOf } from '../ach/service.ts';

interface BillerFacts {
  name: string;
  pattern?: string;
  example?: string;
  method?: 'ach' | 'simulator';
  active?: boolean;
}

const billerBankRouting = '011000015';
const billerBankAccount = '4002008100';

describeEachDatabase('bill payees and paying a bill now (issue 33)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));
  let cityWater: string;
  let sandboxPower: string;

  /** A biller of the directory, written as staff's form writes one (the billers module's tests cover that form). */
  async function addBiller(facts: BillerFacts): Promise<string> {
    const id = randomUUID();
    const ach = (facts.method ?? 'ach') === 'ach';
    await database().query(
      `INSERT INTO billers (id, name, category, account_number_pattern, account_number_example, payment_method, routing_number, account_number, active)
       VALUES ($1, $2, 'water', $3, $4, $5, $6, $7, $8)`,
      [
        id,
        facts.name,
        facts.pattern ?? '\\d{10}',
        facts.example ?? '1234567890',
        ach ? 'ach' : 'simulator',
        ach ? billerBankRouting : null,
        ach ? billerBankAccount : null,
        facts.active ?? true,
      ],
    );
    return id;
  }

  beforeAll(async () => {
    cityWater = await addBiller({ name: 'City Water' });
    sandboxPower = await addBiller({ name: 'Sandbox Power', method: 'simulator' });
  });

  const addPayee = (who: PayingCustomer, body: Record<string, unknown>) => who.browser.post('/api/v1/bill-payees', body);
  const removePayee = (who: PayingCustomer, id: string) => who.browser.request({ method: 'DELETE', url: `/api/v1/bill-payees/${id}` });
  const listed = async (who: PayingCustomer) => (await who.browser.get('/api/v1/bill-payees')).json().items as { id: string; nickname: string }[];

  async function payeeOf(who: PayingCustomer, billerId: string, accountNumber: string, nickname = 'Home'): Promise<string> {
    const response = await addPayee(who, { billerId, accountNumber, nickname });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().payee.id;
  }

  const bill = (who: PayingCustomer, billPayeeId: string, amountCents: number, message = '') => ({
    kind: 'bill',
    fromAccountId: who.checking.id,
    billPayeeId,
    amountCents,
    message,
  });

  const auditActions = async (subject: string) =>
    (await database().query<{ action: string }>('SELECT action FROM audit_log WHERE subject = $1 ORDER BY id', [subject])).map((row) => row.action);

  it('adds a payee (201) answering only the last four characters, keeps the number encrypted, lists by nickname and deletes softly, audited', async () => {
    const dana = await kit.customer();
    const response = await addPayee(dana, { billerId: cityWater, accountNumber: '5550004821', nickname: 'Water at home' });
    expect(response.statusCode, response.body).toBe(201);
    const payee = response.json().payee;
    expect(payee).toEqual({
      id: expect.any(String),
      billerId: cityWater,
      billerName: 'City Water',
      category: 'water',
      nickname: 'Water at home',
      accountEnding: '4821',
      createdAt: expect.any(String),
    });
    expect(response.body).not.toContain('5550004821');
    const [row] = await database().query<{ account_number_encrypted: Buffer; account_ending: string }>(
      'SELECT account_number_encrypted, account_ending FROM bill_payees WHERE id = $1',
      [payee.id],
    );
    expect(Buffer.from(row?.account_number_encrypted ?? []).toString('latin1')).not.toContain('5550004821');
    expect(decrypt(config.secrets.encryptionKey, Buffer.from(row?.account_number_encrypted ?? [])).toString('utf8')).toBe('5550004821');

    await payeeOf(dana, cityWater, '5550009999', 'Apartment water');
    expect((await listed(dana)).map((item) => item.nickname)).toEqual(['Apartment water', 'Water at home']);
    const listBody = (await dana.browser.get('/api/v1/bill-payees')).body;
    expect(listBody).not.toContain('5550004821');

    expect((await removePayee(dana, payee.id)).statusCode).toBe(204);
    expect((await listed(dana)).map((item) => item.nickname)).toEqual(['Apartment water']);
    const [deleted] = await database().query<{ deleted_at: Date | null }>('SELECT deleted_at FROM bill_payees WHERE id = $1', [payee.id]);
    expect(deleted?.deleted_at).toBeInstanceOf(Date);
    expect((await removePayee(dana, payee.id)).statusCode).toBe(404);
    expect(await auditActions(payee.id)).toEqual(['bill_payee.added', 'bill_payee.deleted']);
  });

  it("refuses a number that does not match the biller's pattern with a message naming the example, and saves nothing", async () => {
    const dana = await kit.customer();
    const message = 'An account number at City Water looks like 1234567890';
    // Too short, the pattern matched by a part only, letters, and longer than the contract's 40 characters.
    for (const accountNumber of ['12345', '12345678901', 'ABCDEFGHIJ']) {
      const response = await addPayee(dana, { billerId: cityWater, accountNumber, nickname: 'Water' });
      expect(response.statusCode, accountNumber).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { accountNumber: message } });
    }
    const tooLong = await addPayee(dana, { billerId: cityWater, accountNumber: '1'.repeat(41), nickname: 'Water' });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json().error.fields)).toEqual(['accountNumber']);
    expect(await listed(dana)).toEqual([]);
  });

  it('takes at most 15 characters for a biller paid by ACH (the NACHA field that carries it), up to 40 for the simulator', async () => {
    const dana = await kit.customer();
    const pattern = '[A-Z0-9]{4,40}';
    const longAch = await addBiller({ name: 'Long Number Gas', pattern, example: 'AB12CD34EF56GH78' });
    const longSimulated = await addBiller({ name: 'Long Number Sandbox Gas', pattern, example: 'AB12CD34EF56GH78', method: 'simulator' });
    const refused = await addPayee(dana, { billerId: longAch, accountNumber: 'AB12CD34EF56GH78', nickname: 'Gas' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.accountNumber).toMatch(/^An account number at Long Number Gas is at most 15 characters long/);
    expect((await addPayee(dana, { billerId: longAch, accountNumber: 'AB12CD34EF56GH7', nickname: 'Gas' })).statusCode).toBe(201);
    expect((await addPayee(dana, { billerId: longSimulated, accountNumber: 'AB12CD34EF56GH78AB12CD34EF56GH78', nickname: 'Gas 2' })).statusCode).toBe(201);
  });

  it('refuses the same biller and number twice with 409, and takes it again once deleted', async () => {
    const dana = await kit.customer();
    const first = await payeeOf(dana, cityWater, '5550001111', 'Water');
    const again = await addPayee(dana, { billerId: cityWater, accountNumber: '5550001111', nickname: 'Another name' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'conflict', message: 'You already have this account at City Water as a payee' });
    // Another customer may have the same number at the same biller (a shared household bill).
    expect((await addPayee(await kit.customer(), { billerId: cityWater, accountNumber: '5550001111', nickname: 'Water' })).statusCode).toBe(201);
    expect((await removePayee(dana, first)).statusCode).toBe(204);
    expect((await addPayee(dana, { billerId: cityWater, accountNumber: '5550001111', nickname: 'Water' })).statusCode).toBe(201);
  });

  it('refuses an unknown or inactive biller with a message on billerId', async () => {
    const dana = await kit.customer();
    const inactive = await addBiller({ name: 'Closed Water Co', active: false });
    for (const billerId of [randomUUID(), inactive]) {
      const response = await addPayee(dana, { billerId, accountNumber: '1234567890', nickname: 'Water' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { billerId: 'Choose a biller from the list' } });
    }
    const malformed = await addPayee(dana, { billerId: 'not-a-uuid', accountNumber: '1234567890', nickname: 'Water' });
    expect(malformed.statusCode).toBe(400);
    expect(Object.keys(malformed.json().error.fields)).toEqual(['billerId']);
  });

  it('refuses a payee to a customer whose identity is not approved with 403 "Account has not been approved"', async () => {
    const dana = await kit.customer();
    await database().query(`UPDATE identity_reviews SET status = 'rejected', reason = 'test' WHERE customer_id = $1`, [dana.id]);
    const response = await addPayee(dana, { billerId: cityWater, accountNumber: '1234567890', nickname: 'Water' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({ code: 'forbidden', message: 'Account has not been approved' });
    expect(await database().query('SELECT 1 FROM bill_payees WHERE customer_id = $1', [dana.id])).toEqual([]);
  });

  it("a customer cannot delete or pay another customer's payee: it answers like a missing one", async () => {
    const dana = await kit.customer();
    const mallory = await kit.customer();
    const danas = await payeeOf(dana, cityWater, '5550002222');
    const missing = randomUUID();
    const deletions = [await removePayee(mallory, danas), await removePayee(mallory, missing), await removePayee(mallory, 'not-a-uuid')];
    const missingError = { code: 'not_found', message: deletions[1]?.json().error.message };
    for (const response of deletions) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject(missingError);
    }
    const payments = [await kit.pay(mallory, '/transfers', bill(mallory, danas, 1_000)), await kit.pay(mallory, '/transfers', bill(mallory, missing, 1_000))];
    for (const response of payments) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'not_found', message: payments[1]?.json().error.message });
    }
    expect(await listed(mallory)).toEqual([]);
    expect((await listed(dana)).map((item) => item.id)).toEqual([danas]);
    expect((await kit.balances(mallory)).checking.availableCents).toBe(100_000);
  });

  it('pays a bill: 201 pending at the ACH rail, a step-up for the first payment to the payee and none after', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const payeeId = await payeeOf(dana, cityWater, '5550004821');
    const first = await kit.pay(dana, '/transfers', bill(dana, payeeId, 4_200));
    expect(first.statusCode).toBe(403);
    expect(first.json().error.code).toBe('step_up_required');

    const paid = await kit.payWithStepUp(dana, '/transfers', bill(dana, payeeId, 4_200, 'March'));
    expect(paid.statusCode, paid.body).toBe(201);
    const transfer = paid.json().transfer;
    expect(transfer).toMatchObject({
      kind: 'bill',
      status: 'pending',
      amountCents: 4_200,
      fromAccountId: dana.checking.id,
      toAccountId: null,
      message: 'March',
      counterparty: { name: 'City Water', accountNumber: '••••4821', bankName: null, routeNumber: null, country: null },
    });
    expect(transfer.expectedSettlementAt).toBeTruthy();
    const [row] = await database().query<Record<string, unknown>>(
      'SELECT counterparty_route_number, counterparty_account_number, details, payee_key, rail FROM payments WHERE id = $1',
      [transfer.id],
    );
    expect(row).toEqual({
      counterparty_route_number: billerBankRouting,
      counterparty_account_number: billerBankAccount,
      details: { billPayeeId: payeeId, accountEnding: '4821' },
      payee_key: `bill:${payeeId}`,
      rail: 'ach',
    });
    expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 50_000, availableCents: 45_800 } });

    const second = await kit.pay(dana, '/transfers', bill(dana, payeeId, 1_000));
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().transfer.status).toBe('pending');
  });

  it('holds a bill over the new-payee daily amount for review as any payment to someone else, and refuses one over the largest payment', async () => {
    const dana = await kit.customer({ fundCents: 600_000n });
    const payeeId = await payeeOf(dana, cityWater, '5550003333');
    const over = Number(config.reviewRules.newPayeeDailyCents) + 1;
    const held = await kit.payWithStepUp(dana, '/transfers', bill(dana, payeeId, over));
    expect(held.statusCode, held.body).toBe(201);
    expect(held.json().transfer.status).toBe('in_review');
    const tooLarge = await kit.pay(dana, '/transfers', bill(dana, payeeId, 10_000_000_000_000));
    expect(tooLarge.statusCode).toBe(400);
    expect(Object.keys(tooLarge.json().error.fields)).toEqual(['amountCents']);
  });

  it('refuses a bill from a frozen customer with 403 account_frozen, and moves nothing', async () => {
    const dana = await kit.customer({ fundCents: 20_000n });
    const payeeId = await payeeOf(dana, cityWater, '5550004444');
    const admin = (await staffBrowser(app, database(), config, 'admin')).browser;
    const frozen = await admin.post(`/api/v1/staff/customers/${dana.id}/freeze`, {
      reason: 'Suspicious activity reported',
      customerMessage: neutralFreezeCustomerMessage,
    });
    expect(frozen.statusCode, frozen.body).toBe(200);
    await dana.browser.signInAs(database(), dana.id);
    const refused = await kit.pay(dana, '/transfers', bill(dana, payeeId, 1_000));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('account_frozen');
    expect((await kit.balances(dana)).checking.availableCents).toBe(20_000);
  });

  it('refuses paying a deleted payee, or one whose biller staff made inactive, with a message on billPayeeId', async () => {
    const dana = await kit.customer();
    const deleted = await payeeOf(dana, cityWater, '5550005555');
    expect((await removePayee(dana, deleted)).statusCode).toBe(204);
    const refused = await kit.pay(dana, '/transfers', bill(dana, deleted, 1_000));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ billPayeeId: 'This payee was deleted: add it again to pay it' });

    const closing = await addBiller({ name: 'Closing Water Co' });
    const payeeId = await payeeOf(dana, closing, '5550006666');
    await database().query('UPDATE billers SET active = false WHERE id = $1', [closing]);
    const inactive = await kit.pay(dana, '/transfers', bill(dana, payeeId, 1_000));
    expect(inactive.statusCode).toBe(400);
    expect(inactive.json().error.fields).toEqual({ billPayeeId: 'Closing Water Co can no longer be paid through Bill Pay' });
    expect((await kit.balances(dana)).checking.availableCents).toBe(100_000);
  });

  it('puts a bill to an ACH biller in the NACHA file as a credit to the biller, carrying the customer’s number there and name; a simulator biller’s settles on the simulator', async () => {
    const nora = await kit.customer({ fundCents: 50_000n, firstName: 'Nora', lastName: 'Billpayer' });
    const achPayee = await payeeOf(nora, cityWater, '5550004821');
    const simulatedPayee = await payeeOf(nora, sandboxPower, '7770001234', 'Power');
    const achBill = (await kit.payWithStepUp(nora, '/transfers', bill(nora, achPayee, 12_345))).json().transfer;
    const simulatedBill = (await kit.payWithStepUp(nora, '/transfers', bill(nora, simulatedPayee, 6_789))).json().transfer;

    const file = await buildAchFile({ db: database(), config }, 'ops-cli');
    if (!file) throw new Error('no ACH file was written');
    const entries = await database().query<{ payment_id: string; trace_number: string }>(
      'SELECT payment_id, trace_number FROM ach_entries WHERE payment_id = ANY($1)',
      [[achBill.id, simulatedBill.id]],
    );
    expect(entries.map((entry) => entry.payment_id)).toEqual([achBill.id]);
    const parsed = nacha.from(file.text).data;
    const billBatch = parsed.batches.find((batch) => batch.description === 'BILL PAY');
    expect(billBatch).toMatchObject({ serviceClassCode: 220, entryClassCode: 'PPD' });
    const entry = billBatch?.entries.find((item) => String(item.traceNumber) === entries[0]?.trace_number);
    expect(entry).toMatchObject({
      transactionCode: '22',
      dfiAccount: billerBankAccount,
      amount: 12_345,
      identificationNumber: '5550004821',
      receivingCompanyName: 'NORA BILLPAYER',
    });
    expect(`${String(entry?.receivingDFIIdentification).padStart(8, '0')}${entry?.checkDigit}`).toBe(billerBankRouting);

    // Staff's export of the day's credits names it alike, with the trace number it went out with.
    const exported = await exportAchCreditsOf({ db: database(), config }, String(achBill.expectedSettlementAt).slice(0, 10));
    const exportedEntry = nacha
      .from(exported?.text ?? '')
      .data.batches.flatMap((batch) => batch.entries)
      .find((item) => String(item.traceNumber) === entries[0]?.trace_number);
    expect(exportedEntry).toMatchObject({ dfiAccount: billerBankAccount, identificationNumber: '5550004821', receivingCompanyName: 'NORA BILLPAYER' });

    // The simulator settles the sandbox biller's payment when its time comes, as any pending ACH payment.
    await database().query("UPDATE payments SET settle_at = now() - interval '1 minute' WHERE id = $1", [simulatedBill.id]);
    await kit.runJobs();
    expect((await nora.browser.get(`/api/v1/transfers/${simulatedBill.id}`)).json().transfer.status).toBe('completed');
    expect(await kit.balances(nora)).toMatchObject({ checking: { balanceCents: 50_000 - 6_789, availableCents: 50_000 - 6_789 - 12_345 } });
  });

  it('reads "Bill payment to City Water, account ending 4821" in history, on the dashboard, in a search and on the statement; a memo stands beside it', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const payeeId = await payeeOf(dana, cityWater, '5550004821');
    const plain = (await kit.payWithStepUp(dana, '/transfers', bill(dana, payeeId, 2_500))).json().transfer;
    const withMemo = (await kit.pay(dana, '/transfers', bill(dana, payeeId, 1_500, 'April water'))).json().transfer;
    const line = 'Bill payment to City Water, account ending 4821';

    const history = (await dana.browser.get('/api/v1/transactions')).json().items as { transferId: string; description: string; party: string | null }[];
    expect(history.find((item) => item.transferId === plain.id)).toMatchObject({ description: line, party: line, amountCents: -2_500, category: 'Transfer' });
    expect(history.find((item) => item.transferId === withMemo.id)).toMatchObject({ description: 'April water', party: line });

    const dashboard = (await dana.browser.get('/api/v1/dashboard')).json().recentTransactions as { transferId: string; description: string }[];
    expect(dashboard.find((item) => item.transferId === plain.id)?.description).toBe(line);

    const found = (await dana.browser.get(`/api/v1/transactions?q=${encodeURIComponent('bill payment to city')}`)).json().items as { transferId: string }[];
    expect(found.map((item) => item.transferId).sort()).toEqual([plain.id, withMemo.id].sort());

    const detail = (await dana.browser.get(`/api/v1/transactions/${plain.id}:out`)).json();
    expect(detail).toMatchObject({ reason: line, medium: 'Bill payment (ACH)', counterparty: { name: 'City Water', accountNumber: '••••4821' } });

    // A statement lists what was posted: the simulator settles the bill first, and the line reads completed.
    await database().query("UPDATE payments SET settle_at = now() - interval '1 minute' WHERE id = ANY($1)", [[plain.id, withMemo.id]]);
    await kit.runJobs();
    const settled = (await dana.browser.get('/api/v1/transactions')).json().items as { transferId: string; status: string }[];
    expect(settled.find((item) => item.transferId === plain.id)?.status).toBe('completed');
    const today = todayIn(config.bankTimeZone);
    const csv = (await dana.browser.get(`/api/v1/accounts/${dana.checking.id}/statement?from=${today}&to=${today}&format=csv`)).body;
    expect(csv).toContain(line);
  });

  it("lists the customer's bill payees in the data export's accounts.json, by the last four characters only", async () => {
    const dana = await kit.customer();
    const payeeId = await payeeOf(dana, cityWater, '5550007777', 'Water');
    const exported = await dana.browser.get('/api/v1/me/export');
    expect(exported.statusCode, exported.body).toBe(200);
    const files = unzipSync(new Uint8Array(exported.rawPayload));
    const accounts = Buffer.from(files['accounts.json'] ?? []).toString('utf8');
    expect(JSON.parse(accounts).billPayees).toEqual([
      {
        id: payeeId,
        billerId: cityWater,
        billerName: 'City Water',
        category: 'water',
        nickname: 'Water',
        accountEnding: '7777',
        createdAt: expect.any(String),
      },
    ]);
    expect(accounts).not.toContain('5550007777');
  });

  it('answers 401 without a session', async () => {
    for (const request of [
      { method: 'GET', url: '/api/v1/bill-payees' },
      { method: 'POST', url: '/api/v1/bill-payees', payload: { billerId: cityWater, accountNumber: '1234567890', nickname: 'Water' } },
      { method: 'DELETE', url: `/api/v1/bill-payees/${randomUUID()}` },
    ] as const) {
      const response = await app.inject(request);
      expect(response.statusCode, request.method).toBe(401);
    }
  });
});
