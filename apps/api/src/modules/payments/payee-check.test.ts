import { expect, it } from 'vitest';
import { testAppSuite } from '../../test/suite.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentKit, type PayingCustomer } from '../../test/payments.ts';
import { payeeCheckLimits } from './payee-check.ts';

let nextAddress = 1;
const freshAddress = () => `192.0.2.${nextAddress++}`;

describeEachDatabase('payee check (Confirmation of Payee)', (database) => {
  const kit = paymentKit(testAppSuite(database, () => undefined));

  const check = (who: PayingCustomer, body: { accountNumber: string; accountName: string }, remoteAddress = freshAddress()) =>
    who.browser.request({ method: 'POST', url: '/api/v1/transfers/payee-check', payload: body, remoteAddress });

  it('answers a number that no account has exactly as a name that does not match, and keeps the close match', async () => {
    const dana = await kit.customer();
    const erin = await kit.customer({ firstName: 'Erin', lastName: 'Example' });
    const wrongName = await check(dana, { accountNumber: erin.checking.number, accountName: 'Mallory Thief' });
    const missingAccount = await check(dana, { accountNumber: '0000000001', accountName: 'Mallory Thief' });
    expect(wrongName.statusCode).toBe(200);
    expect(missingAccount.statusCode).toBe(wrongName.statusCode);
    expect(missingAccount.body).toBe(wrongName.body);
    expect(missingAccount.json()).toEqual({ result: 'no_match' });
    expect((await check(dana, { accountNumber: erin.checking.number, accountName: 'Erin Exampel' })).json()).toEqual({
      result: 'close_match',
      accountName: 'Erin Example',
    });
  });

  it('limits the checks of one customer, whatever address they come from', async () => {
    const dana = await kit.customer();
    const body = { accountNumber: '0000000002', accountName: 'Somebody Else' };
    for (let allowed = 0; allowed < payeeCheckLimits.perCustomer.max; allowed++) {
      expect((await check(dana, body)).statusCode).toBe(200);
    }
    const refused = await check(dana, body);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const someoneElse = await kit.customer();
    expect((await check(someoneElse, body)).statusCode).toBe(200);
  });

  it('limits the checks from one address, whichever customers make them', async () => {
    const address = freshAddress();
    const customers = [await kit.customer(), await kit.customer()];
    const body = { accountNumber: '0000000003', accountName: 'Somebody Else' };
    for (let allowed = 0; allowed < payeeCheckLimits.perAddress.max; allowed++) {
      const who = customers[allowed % customers.length] as PayingCustomer;
      expect((await check(who, body, address)).statusCode).toBe(200);
    }
    expect((await check(customers[0] as PayingCustomer, body, address)).statusCode).toBe(429);
  });
});
