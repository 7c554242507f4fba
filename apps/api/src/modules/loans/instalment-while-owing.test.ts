import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { activeLoan } from '../../test/loans.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';

/**
 * The daily instalment while checking owes the bank after a deposit was returned late (issue 30
 * item 6; decision 052): it reads what is owed in the transaction that would take it, takes
 * nothing and is late, like one without the money; once what is owed is paid, the next run takes it.
 */
describeEachDatabase('a loan instalment while checking owes the bank', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant' } });
  const ops = (command: string, args: string[]) =>
    runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, command, args);
  const instalments = async (who: PayingCustomer, loanId: string) => (await who.browser.get(`/api/v1/loans/${loanId}`)).json<LoanDetailResponse>().schedule;

  it('takes nothing and is late while checking owes; paid once the debt is paid', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const erin = await kit.customer({ fundCents: 100_000n, firstName: 'Erin', lastName: 'Example' });
    const operations = (await staffBrowser(app, database(), config, 'operations')).browser;
    const loanId = await activeLoan(dana.browser, operations, { reason: 'Income supports it', amountCents: 10_000, aprBps: 1_200, termMonths: 6 });

    // $200 in from her other bank, cleared; $300 of the loan and the deposit sent on; then the deposit is returned late.
    const deposit = await kit.pay(dana, '/deposits', {
      accountId: dana.checking.id,
      fundingSourceId: dana.fundingSourceId,
      amountCents: 20_000,
      reason: 'Pay in',
    });
    expect(deposit.statusCode, deposit.body).toBe(201);
    await kit.runJobs();
    const sent = await kit.payWithStepUp(dana, '/transfers', {
      kind: 'internal',
      fromAccountId: dana.checking.id,
      toAccountNumber: erin.checking.number,
      accountName: 'Erin Example',
      amountCents: 25_000,
      message: 'Rent',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const returned = await ops('ach-return', [deposit.json().transfer.id, '--code', 'R01', '--reason', 'Late return in the rail file']);
    expect(returned.exitCode, returned.output).toBe(0);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(-15_000);

    const firstDue = (await instalments(dana, loanId))[0]?.dueDate ?? '';
    const collect = async () => {
      const result = await ops('loan-repayments', ['--as-of', firstDue]);
      expect(result.exitCode, result.output).toBe(0);
      return JSON.parse(result.output) as { paid: number; late: number };
    };
    expect(await collect()).toMatchObject({ paid: 0, late: 1 });
    expect((await instalments(dana, loanId))[0]?.status).toBe('late');
    expect((await kit.balances(dana)).checking.balanceCents).toBe(-15_000);
    const [taken] = await database().query<{ n: bigint }>("SELECT count(*)::bigint AS n FROM payments WHERE customer_id = $1 AND kind = 'loan_repayment'", [
      dana.id,
    ]);
    expect(taken?.n).toBe(0n);

    // $200 comes in: $150 pays what is owed at once, and the next run takes the instalment.
    const paidIn = await kit.payWithStepUp(erin, '/transfers', {
      kind: 'internal',
      fromAccountId: erin.checking.id,
      toAccountNumber: dana.checking.number,
      accountName: 'Demo Customer',
      amountCents: 20_000,
      message: 'Back',
    });
    expect(paidIn.statusCode, paidIn.body).toBe(201);
    expect(await collect()).toMatchObject({ paid: 1 });
    expect((await instalments(dana, loanId))[0]?.status).toBe('paid');
    expect((await kit.balances(dana)).checking.balanceCents).toBe(5_000 - 1_725);
    await kit.expectLedgerConsistent();
  });
});
