import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { countryMessages } from '@strongroom/contracts/countries.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { otherBankPayee, paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { maxBeneficiariesPerCustomer, saveBeneficiaryFromPayment } from './service.ts';

describeEachDatabase('beneficiaries', (database) => {
  let app: FastifyInstance;
  let owner: PayingCustomer;
  let payee: PayingCustomer;
  const kit = paymentKit(testAppSuite(database, (built) => ({ app } = built)));
  /** A customer with empty accounts, as the account fixture opens one. */
  const newCustomer = (name?: { firstName: string; lastName: string }) => kit.customer({ fundCents: 0n, ...name });
  beforeAll(async () => {
    owner = await newCustomer();
    payee = await newCustomer({ firstName: 'Ada', lastName: 'Lovelace' });
  });

  /** A new browser signed in as the customer: a session (and an address) of its own. */
  const signedIn = async (who: PayingCustomer) => new TestBrowser(app).signInAs(database(), who.id);
  const remove = (browser: TestBrowser, id: string) => browser.request({ method: 'DELETE', url: `/api/v1/beneficiaries/${id}` });

  it('adds a payee of another bank, lists it newest first, and deletes it', async () => {
    const browser = await signedIn(owner);
    const first = await browser.post('/api/v1/beneficiaries', otherBankPayee);
    expect(first.statusCode).toBe(201);
    expect(first.json().beneficiary).toEqual({ ...otherBankPayee, id: expect.any(String), accountType: null, createdAt: expect.any(String) });
    const second = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, accountName: 'Charles Babbage', accountNumber: '11112222' });
    expect(second.statusCode).toBe(201);

    const listed = await browser.get('/api/v1/beneficiaries');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.map((item: { accountName: string }) => item.accountName)).toEqual(['Charles Babbage', 'Ada Lovelace']);

    expect((await remove(browser, first.json().beneficiary.id)).statusCode).toBe(204);
    expect((await browser.get('/api/v1/beneficiaries')).json().items.map((item: { accountName: string }) => item.accountName)).toEqual(['Charles Babbage']);
    expect((await remove(browser, first.json().beneficiary.id)).statusCode).toBe(404);
    const [row] = await database().query<{ deleted_at: Date | null }>('SELECT deleted_at FROM beneficiaries WHERE id = $1', [first.json().beneficiary.id]);
    expect(row?.deleted_at).toBeInstanceOf(Date);
  });

  it('saves an account of this bank with its type', async () => {
    const browser = await signedIn(owner);
    const savings = payee.savings;
    const response = await browser.post('/api/v1/beneficiaries', {
      ...otherBankPayee,
      bankType: 'mybank',
      bankName: 'Strongroom Demo Bank',
      accountNumber: savings.number,
      routeNumber: businessConstants.bankRoutingNumber,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().beneficiary).toMatchObject({ bankType: 'mybank', accountNumber: savings.number, accountType: 'savings' });
  });

  const payeeOfThisBank = (accountNumber: string, accountName: string) => ({
    ...otherBankPayee,
    bankType: 'mybank',
    bankName: 'Strongroom Demo Bank',
    accountNumber,
    accountName,
    routeNumber: businessConstants.bankRoutingNumber,
  });

  it('checks the name of a payee of this bank as paying does: a close name is told the real one, another name nothing more', async () => {
    const browser = await signedIn(owner);
    const checking = payee.checking;
    const before = await database().query('SELECT 1 FROM beneficiaries');
    const close = await browser.post('/api/v1/beneficiaries', payeeOfThisBank(checking.number, 'A Lovelace'));
    const closeMessage = 'The name on this account is Ada Lovelace. Save the payee with that name if it is who you want to pay.';
    expect(close.statusCode).toBe(422);
    expect(close.json().error).toMatchObject({ code: 'payee_name_mismatch', message: closeMessage, fields: { accountName: closeMessage } });
    const other = await browser.post('/api/v1/beneficiaries', payeeOfThisBank(checking.number, 'Charles Babbage'));
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('payee_name_mismatch');
    expect(other.json().error.message).not.toContain('Lovelace');
    expect(await database().query('SELECT 1 FROM beneficiaries')).toHaveLength(before.length);
    const matched = await browser.post('/api/v1/beneficiaries', payeeOfThisBank(checking.number, 'ada  LOVELACE'));
    expect(matched.statusCode, matched.body).toBe(201);
  });

  it("refuses the customer's own account as a payee of this bank with own_account_payee", async () => {
    const browser = await signedIn(owner);
    const response = await browser.post('/api/v1/beneficiaries', payeeOfThisBank(owner.savings.number, 'Demo Customer'));
    expect(response.statusCode).toBe(422);
    expect(response.json().error).toMatchObject({ code: 'own_account_payee', fields: { accountNumber: expect.stringContaining('your own accounts') } });
  });

  it('refuses a country that is not on the ISO 3166 list, and takes one that is in any case', async () => {
    const browser = await signedIn(owner);
    const narnia = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, accountNumber: '55554444', nameOfCountry: 'Narnia' });
    expect(narnia.statusCode).toBe(400);
    expect(narnia.json().error).toMatchObject({ code: 'validation_failed', fields: { nameOfCountry: countryMessages.notListed } });
    const listed = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, accountNumber: '55554444', nameOfCountry: 'united kingdom' });
    expect(listed.statusCode, listed.body).toBe(201);
  });

  it('refuses a number that is no open account of this bank, and saves nothing', async () => {
    const browser = await signedIn(owner);
    const checking = payee.checking;
    await database().query("UPDATE customer_accounts SET status = 'closed', closed_at = now() WHERE id = $1", [checking.id]);
    const before = await database().query('SELECT 1 FROM beneficiaries');
    for (const accountNumber of ['1234567890', checking.number]) {
      const response = await browser.post('/api/v1/beneficiaries', {
        ...otherBankPayee,
        bankType: 'mybank',
        accountNumber,
        routeNumber: businessConstants.bankRoutingNumber,
      });
      expect(response.statusCode, accountNumber).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_failed', fields: { accountNumber: 'No account at this bank has this number' } });
    }
    expect(await database().query('SELECT 1 FROM beneficiaries')).toHaveLength(before.length);
  });

  it('answers an empty form with a message for each of the five fields', async () => {
    const browser = await signedIn(owner);
    const response = await browser.post('/api/v1/beneficiaries', {
      bankName: '',
      accountName: ' ',
      accountNumber: '',
      nameOfCountry: '',
      routeNumber: '',
      bankType: 'otherbank',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      bankName: validationMessages.required,
      accountName: validationMessages.required,
      nameOfCountry: validationMessages.required,
      accountNumber: validationMessages.required,
      routeNumber: validationMessages.required,
    });
  });

  it('refuses a route number that fails the ABA checksum and an unknown bank type', async () => {
    const browser = await signedIn(owner);
    const route = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, routeNumber: '021000022' });
    expect(route.statusCode).toBe(400);
    expect(route.json().error.fields).toEqual({ routeNumber: validationMessages.routeNumberInvalid });
    const swift = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, routeNumber: 'DEUTDEFF500' });
    expect(swift.json().error.fields).toEqual({ routeNumber: validationMessages.routeNumberIsSwift });
    const bankType = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, bankType: 'somebank' });
    expect(Object.keys(bankType.json().error.fields)).toEqual(['bankType']);
  });

  it('refuses the same payee twice with 409, and takes it again once deleted', async () => {
    const browser = await signedIn(await newCustomer());
    const first = await browser.post('/api/v1/beneficiaries', otherBankPayee);
    expect(first.statusCode).toBe(201);
    const again = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, accountName: 'Another Name', bankName: 'Another Name Bank' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'conflict', message: 'This beneficiary is already saved' });

    expect((await remove(browser, first.json().beneficiary.id)).statusCode).toBe(204);
    expect((await browser.post('/api/v1/beneficiaries', otherBankPayee)).statusCode).toBe(201);
  });

  it(`keeps at most ${maxBeneficiariesPerCustomer} saved payees per customer`, async () => {
    const customer = await newCustomer();
    const browser = await signedIn(customer);
    for (let index = 0; index < maxBeneficiariesPerCustomer - 1; index++) {
      await saveBeneficiaryFromPayment(database(), customer.id, { ...otherBankPayee, accountNumber: String(100_000 + index), accountType: null });
    }
    expect((await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, accountNumber: '5550001' })).statusCode).toBe(201);
    const beyond = await browser.post('/api/v1/beneficiaries', { ...otherBankPayee, accountNumber: '5550002' });
    expect(beyond.statusCode).toBe(409);
    expect(beyond.json().error.message).toMatch(/at most 200/);

    // A payment's "add to favourites" beyond the limit saves nothing and does not fail.
    await saveBeneficiaryFromPayment(database(), customer.id, { ...otherBankPayee, accountNumber: '5550003', accountType: null });
    const listed = await browser.get('/api/v1/beneficiaries');
    expect(listed.json().items).toHaveLength(maxBeneficiariesPerCustomer);
  });

  it('lets only one of several additions at once take the last place or the same payee', async () => {
    const customer = await newCustomer();
    const browser = await signedIn(customer);
    const same = await Promise.all(Array.from({ length: 5 }, () => browser.post('/api/v1/beneficiaries', otherBankPayee)));
    expect(same.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);

    for (let index = 1; index < maxBeneficiariesPerCustomer - 1; index++) {
      await saveBeneficiaryFromPayment(database(), customer.id, { ...otherBankPayee, accountNumber: String(200_000 + index), accountType: null });
    }
    const racing = await Promise.all(
      Array.from({ length: 5 }, (_, index) => browser.post('/api/v1/beneficiaries', { ...otherBankPayee, accountNumber: String(300_000 + index) })),
    );
    expect(racing.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    expect((await browser.get('/api/v1/beneficiaries')).json().items).toHaveLength(maxBeneficiariesPerCustomer);
  });

  it('saves a payee from a payment once, however often it is paid', async () => {
    const customer = await newCustomer();
    const saved = { ...otherBankPayee, bankType: 'mybank', accountNumber: payee.savings.number, accountType: 'savings' } as const;
    await saveBeneficiaryFromPayment(database(), customer.id, saved);
    await database().transaction((tx) => saveBeneficiaryFromPayment(tx, customer.id, saved));
    const listed = (await (await signedIn(customer)).get('/api/v1/beneficiaries')).json();
    expect(listed.items).toEqual([expect.objectContaining({ bankType: 'mybank', accountNumber: saved.accountNumber, accountType: 'savings' })]);
  });

  it("a customer cannot see or delete another customer's beneficiary: it answers like a missing one", async () => {
    const ownerBrowser = await signedIn(owner);
    const stranger = await signedIn(payee);
    const [saved] = (await ownerBrowser.get('/api/v1/beneficiaries')).json().items as { id: string }[];
    if (!saved) throw new Error('the owner has no beneficiary');

    expect((await stranger.get('/api/v1/beneficiaries')).json().items).toEqual([]);
    const foreign = await remove(stranger, saved.id);
    const missing = await remove(stranger, '3f1e4a52-8a1c-4c47-9f0e-1d2b3c4d5e6f');
    const malformed = await remove(stranger, 'not-a-uuid');
    for (const response of [foreign, missing, malformed]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'not_found', message: foreign.json().error.message });
    }
    expect((await ownerBrowser.get('/api/v1/beneficiaries')).json().items.map((item: { id: string }) => item.id)).toContain(saved.id);
  });

  it('answers 401 without a session, and 403 to a change without the CSRF header', async () => {
    for (const request of [
      { method: 'GET', url: '/api/v1/beneficiaries' },
      { method: 'POST', url: '/api/v1/beneficiaries', payload: otherBankPayee },
      { method: 'DELETE', url: '/api/v1/beneficiaries/3f1e4a52-8a1c-4c47-9f0e-1d2b3c4d5e6f' },
    ] as const) {
      const response = await app.inject(request);
      expect(response.statusCode, request.method).toBe(401);
      expect(response.json().error.code).toBe('unauthenticated');
    }

    const browser = await signedIn(owner);
    const [saved] = (await browser.get('/api/v1/beneficiaries')).json().items as { id: string }[];
    const withoutToken = { 'x-csrf-token': '' };
    const add = await browser.request({
      method: 'POST',
      url: '/api/v1/beneficiaries',
      payload: { ...otherBankPayee, accountNumber: '4444333322' },
      headers: withoutToken,
    });
    const deletion = await browser.request({ method: 'DELETE', url: `/api/v1/beneficiaries/${saved?.id}`, headers: withoutToken });
    for (const response of [add, deletion]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    expect((await browser.get('/api/v1/beneficiaries')).json().items.map((item: { id: string }) => item.id)).toContain(saved?.id);
    expect((await browser.get('/api/v1/beneficiaries')).json().items.map((item: { accountNumber: string }) => item.accountNumber)).not.toContain('4444333322');
  });
});
