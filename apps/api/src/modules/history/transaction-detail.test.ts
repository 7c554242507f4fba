import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { TestBrowser } from '../../test/client.ts';
import { ownTransfer, paymentSuite, validExternal, type PayingCustomer } from '../../test/payments.ts';

describeEachDatabase('transaction details', (database) => {
  let app: FastifyInstance;
  const kit = paymentSuite(database, (built) => ({ app } = built), { environment: { RAIL_SPEED: 'instant' } });

  const detailOf = (who: PayingCustomer | TestBrowser, lineId: string) =>
    ('browser' in who ? who.browser : who).get(`/api/v1/transactions/${encodeURIComponent(lineId)}`);

  /** An error body without its request id, to compare two answers. */
  const withoutRequestId = (body: { error: Record<string, unknown> }) => ({ ...body, error: { ...body.error, requestId: undefined } });

  it('shows a transfer to another bank with its payee, route number, reason, medium and receipt reference', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const transfer = (
      await kit.payOtherBank(dana, { toAccountNumber: '123456789', accountName: 'Frank Payee', amountCents: 2_500, message: 'Invoice 42' })
    ).json().transfer;
    const response = await detailOf(dana, `${transfer.id}:out`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      transaction: expect.objectContaining({
        id: `${transfer.id}:out`,
        transferId: transfer.id,
        kind: 'external',
        status: 'pending',
        amountCents: -2_500,
        category: 'Transfer',
        description: 'Invoice 42',
      }),
      account: { id: dana.checking.id, type: 'checking', number: dana.checking.number },
      counterparty: { name: 'Frank Payee', accountNumber: '123456789', routeNumber: validExternal.routeNumber, bankName: validExternal.nameOfBank },
      reason: 'Invoice 42',
      medium: 'ACH',
      statusReason: null,
      receiptReference: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$/),
    });
    // Asked again, the same reference.
    expect((await detailOf(dana, `${transfer.id}:out`)).json().receiptReference).toBe(response.json().receiptReference);
  });

  it('shows both sides of an own transfer, each with the other own account, and a reference of its own', async () => {
    const dana = await kit.customer({ fundCents: 50_000n });
    const transfer = (await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 700, 'Savings'))).json().transfer;
    const out = (await detailOf(dana, `${transfer.id}:out`)).json();
    const into = (await detailOf(dana, `${transfer.id}:in`)).json();
    expect(out).toMatchObject({
      account: { id: dana.checking.id },
      counterparty: { accountNumber: dana.savings.number },
      medium: 'Own account',
      transaction: { amountCents: -700, category: 'Transfer' },
    });
    expect(into).toMatchObject({
      account: { id: dana.savings.id },
      counterparty: { accountNumber: dana.checking.number },
      medium: 'Own account',
      transaction: { amountCents: 700, category: 'Credit' },
    });
    expect(into.receiptReference).not.toBe(out.receiptReference);
  });

  it('shows a deposit with its status and medium, and the opening deposit as such', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const deposit = (
      await kit.pay(dana, '/deposits', { accountId: dana.checking.id, fundingSourceId: dana.fundingSourceId, amountCents: 2_000, reason: 'Cheque from Gran' })
    ).json().transfer;
    expect((await detailOf(dana, `${deposit.id}:in`)).json()).toMatchObject({
      transaction: { transferId: deposit.id, status: 'pending', amountCents: 2_000, category: 'Deposit' },
      counterparty: { name: 'Demo Customer', accountNumber: '•••• 0055', routeNumber: '011000015' },
      reason: 'Cheque from Gran',
      medium: 'Deposit (ACH)',
    });
    const funding = (await dana.browser.get('/api/v1/transactions?category=Funding')).json().items[0];
    expect((await detailOf(dana, funding.id)).json()).toMatchObject({
      reason: 'Opening deposit',
      medium: 'Opening deposit',
      transaction: { kind: 'funding', amountCents: 10_000 },
    });
  });

  it('shows a card payment with the last four digits of the card only', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const card = (await kit.payCard(dana, { cardNumber: '4111111111111111', accountName: 'Gina', amountCents: 1_500, message: 'card' })).json().transfer;
    const response = await detailOf(dana, `${card.id}:out`);
    expect(response.json()).toMatchObject({ counterparty: { name: 'Gina', accountNumber: '•••• 1111' }, medium: 'Card', transaction: { category: 'Debit' } });
    expect(response.body).not.toContain('4111111111111111');
  });

  it('shows the recipient of an internal transfer the sender name but never the sender account, and nothing while it is held', async () => {
    const dana = await kit.customer({ fundCents: 2_000_000n, firstName: 'Dana', lastName: 'Demo' });
    const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
    const gift = (await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents: 3_000, message: 'gift' })).json().transfer;
    const received = await detailOf(erin, `${gift.id}:in`);
    expect(received.statusCode).toBe(200);
    expect(received.json()).toMatchObject({
      account: { id: erin.checking.id },
      counterparty: { name: 'Dana Demo', accountNumber: null, routeNumber: null, bankName: null },
      medium: 'Within the bank',
    });
    expect(received.body).not.toContain(dana.checking.number);
    expect(received.body).not.toContain(dana.checking.id);
    expect((await detailOf(erin, `${gift.id}:out`)).statusCode).toBe(404);

    // Erin is a known payee by now, so no second step-up; the amount holds it for review.
    const held = (
      await kit.pay(dana, '/transfers', {
        kind: 'internal',
        fromAccountId: dana.checking.id,
        toAccountNumber: erin.checking.number,
        accountName: 'Erin Example',
        amountCents: 1_000_000,
        message: 'Car',
      })
    ).json().transfer;
    expect(held.status).toBe('in_review');
    expect((await detailOf(erin, `${held.id}:in`)).statusCode).toBe(404);
    expect((await detailOf(dana, `${held.id}:out`)).json()).toMatchObject({ transaction: { status: 'in_review' } });
  });

  it('answers another customer line exactly like a missing one, writes the refusal to the audit log, and 404s a malformed id', async () => {
    const dana = await kit.customer({ fundCents: 10_000n });
    const mallory = await kit.customer();
    const transfer = (await kit.pay(dana, '/transfers', ownTransfer(dana.checking.id, dana.savings.id, 100, 'mine'))).json().transfer;
    const theirs = await detailOf(mallory, `${transfer.id}:out`);
    const missing = await detailOf(mallory, `${randomUUID()}:out`);
    expect(theirs.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(withoutRequestId(theirs.json())).toEqual(withoutRequestId(missing.json()));
    const audit = await database().query<{ actor_id: string; outcome: string }>(
      "SELECT actor_id, outcome FROM audit_log WHERE action = 'history.line' AND subject = $1",
      [`${transfer.id}:out`],
    );
    expect(audit).toEqual([{ actor_id: mallory.id, outcome: 'denied' }]);
    for (const id of ['not-a-line', `${transfer.id}`, `${transfer.id}:sideways`, `${transfer.id}:out:extra`]) {
      expect((await detailOf(dana, id)).statusCode, id).toBe(404);
    }
    expect((await detailOf(new TestBrowser(app), `${transfer.id}:out`)).statusCode).toBe(401);
  });
});
