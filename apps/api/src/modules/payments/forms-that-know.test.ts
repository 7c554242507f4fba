import { describe, expect, it } from 'vitest';
import { countryMessages } from '@strongroom/contracts/countries.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { withdrawalMessages } from '@strongroom/contracts/payments.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, typedBankAccount } from '../../test/payments.ts';

/**
 * Issue 39 item 6 (decision 060): a withdrawal goes to a verified linked bank without typing it
 * again, a country is one the ISO 3166 list knows, a SWIFT code is told that international
 * transfers are not offered, and the message of an own transfer may be left empty.
 */

describeEachDatabase('forms that know what the bank knows', (database) => {
  const kit = paymentSuite(database, () => undefined, { environment: { RAIL_SPEED: 'instant' } });

  describe('withdrawing to a linked bank', () => {
    it('withdraws to a verified linked bank named by its id, masked as a deposit from it is, after a step-up', async () => {
      const dana = await kit.customer({ fundCents: 50_000n, firstName: 'Dana', lastName: 'Demo' });
      const response = await kit.payWithStepUp(dana, '/withdrawals', {
        fromAccountId: dana.checking.id,
        amountCents: 12_000,
        fundingSourceId: dana.fundingSourceId,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().transfer).toMatchObject({
        kind: 'withdrawal',
        status: 'pending',
        amountCents: 12_000,
        counterparty: { name: 'Dana Demo', accountNumber: '•••• 0055', routeNumber: '011000015', country: 'United States' },
      });
      expect((await kit.balances(dana)).checking.availableCents).toBe(38_000);
      await kit.runJobs();
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 38_000, availableCents: 38_000 } });
    });

    it("a customer cannot withdraw to another customer's linked bank: it answers as if there were none, and moves nothing", async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const erin = await kit.customer();
      const response = await kit.pay(dana, '/withdrawals', { fromAccountId: dana.checking.id, amountCents: 1_000, fundingSourceId: erin.fundingSourceId });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe('no_funding_source');
      const unknown = await kit.pay(dana, '/withdrawals', {
        fromAccountId: dana.checking.id,
        amountCents: 1_000,
        fundingSourceId: '00000000-0000-4000-8000-000000000000',
      });
      expect(unknown.json().error).toEqual({ ...response.json().error, requestId: expect.any(String) });
      expect((await kit.balances(dana)).checking.availableCents).toBe(50_000);
    });

    it('refuses a linked bank and a typed account in one request', async () => {
      const dana = await kit.customer();
      const response = await kit.pay(dana, '/withdrawals', {
        fromAccountId: dana.checking.id,
        amountCents: 1_000,
        fundingSourceId: dana.fundingSourceId,
        ...typedBankAccount,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ fundingSourceId: withdrawalMessages.sourceOrTyped });
    });

    it('still takes an account typed by hand, as the contract always has', async () => {
      const dana = await kit.customer({ fundCents: 50_000n });
      const response = await kit.payWithStepUp(dana, '/withdrawals', { fromAccountId: dana.checking.id, amountCents: 1_000, ...typedBankAccount });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().transfer.counterparty).toMatchObject({ accountNumber: '123123123', bankName: 'First Example Bank' });
    });
  });

  describe('countries and routing numbers', () => {
    it('refuses "Narnia" as the country of a withdrawal and of a transfer to another bank, and takes a listed one in any case', async () => {
      const dana = await kit.customer();
      const withdrawal = await kit.pay(dana, '/withdrawals', { fromAccountId: dana.checking.id, amountCents: 1_000, ...typedBankAccount, country: 'Narnia' });
      expect(withdrawal.statusCode).toBe(400);
      expect(withdrawal.json().error).toMatchObject({ code: 'validation_failed', fields: { country: countryMessages.notListed } });
      const external = {
        kind: 'external',
        fromAccountId: dana.checking.id,
        amountCents: 1_000,
        message: 'Rent',
        toAccountNumber: '123123123',
        accountName: 'Erin Example',
        routeNumber: '011000015',
        nameOfBank: 'First Example Bank',
      };
      const narnia = await kit.pay(dana, '/transfers', { ...external, nameOfCountry: 'Narnia' });
      expect(narnia.statusCode).toBe(400);
      expect(narnia.json().error.fields).toEqual({ nameOfCountry: countryMessages.notListed });
      const listed = await kit.pay(dana, '/transfers', { ...external, nameOfCountry: 'united states' });
      expect(listed.json().error?.fields).toBeUndefined();
    });

    it('tells a SWIFT/BIC code typed as a routing number that international transfers are not offered', async () => {
      const dana = await kit.customer();
      for (const swift of ['DEUTDEFF', 'deutdeff500', 'BOFA US 3N']) {
        const response = await kit.pay(dana, '/withdrawals', { fromAccountId: dana.checking.id, amountCents: 1_000, ...typedBankAccount, routeNumber: swift });
        expect(response.statusCode, swift).toBe(400);
        expect(response.json().error.fields, swift).toEqual({ routeNumber: validationMessages.routeNumberIsSwift });
      }
      const wrongDigits = await kit.pay(dana, '/withdrawals', {
        fromAccountId: dana.checking.id,
        amountCents: 1_000,
        ...typedBankAccount,
        routeNumber: '011000016',
      });
      expect(wrongDigits.json().error.fields).toEqual({ routeNumber: validationMessages.routeNumberInvalid });
    });
  });

  describe('the message of an own transfer', () => {
    it('may be left out or empty between the customer’s own accounts, and is still at most 140 characters', async () => {
      const dana = await kit.customer({ fundCents: 10_000n });
      const own = { kind: 'own', fromAccountId: dana.checking.id, toAccountId: dana.savings.id, amountCents: 1_000 };
      const without = await kit.pay(dana, '/transfers', own);
      expect(without.statusCode, without.body).toBe(201);
      expect(without.json().transfer).toMatchObject({ status: 'completed', message: '' });
      const empty = await kit.pay(dana, '/transfers', { ...own, message: '  ' });
      expect(empty.statusCode, empty.body).toBe(201);
      const tooLong = await kit.pay(dana, '/transfers', { ...own, message: 'x'.repeat(141) });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().error.fields).toEqual({ message: validationMessages.tooLong });
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 8_000 }, savings: { balanceCents: 2_000 } });
    });

    it('is still required when paying someone else', async () => {
      const dana = await kit.customer();
      const erin = await kit.customer();
      const response = await kit.pay(dana, '/transfers', {
        kind: 'internal',
        fromAccountId: dana.checking.id,
        toAccountNumber: erin.checking.number,
        accountName: 'Demo Customer',
        amountCents: 1_000,
        message: '',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ message: validationMessages.required });
    });
  });
});
