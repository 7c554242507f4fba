import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { ledgers, operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import { createTransfers } from '../../ledger/create-transfers.ts';
import { lookupTransfers } from '../../ledger/history.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { insertBareCustomer, waitingIdentityReview } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { activeLoan } from '../../test/loans.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { staffBrowser } from '../../test/staff.ts';
import { runLoanRepayments } from '../loans/repayments.ts';
import { bankToday } from '../loans/service.ts';
import { decideIdentity } from '../onboarding/identity-review.ts';
import { bonusTransferIdOf, recordReferral, settleReferralBonuses } from '../referrals/service.ts';
import { moveMoney, type MoneyMovement } from './service.ts';

/**
 * Issue 31 item 1 (decision 065): loans and referral bonuses move money through payments'
 * moveMoney, in one transaction with their own state change. A failure anywhere in that
 * transaction leaves no money moved and no line written; a rerun of the same movement moves once.
 */
describeEachDatabase('one money-movement primitive: the money, the line and the state commit together', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'instant', KYC_AUTO_APPROVE_SECONDS: 'off' } });

  const count = async (text: string, values: unknown[]) => Number((await database().query<{ n: number }>(text, values))[0]?.n ?? 0);
  const ledgerAccountOf = async (accountId: string) =>
    (await database().query<{ ledger_account_id: string }>('SELECT ledger_account_id FROM customer_accounts WHERE id = $1', [accountId]))[0]!.ledger_account_id;

  /** A statement that fails inside the transaction that books the money, from a trigger on one table for one row. */
  async function failInserts(table: 'loan_repayments' | 'audit_log', column: string, value: string): Promise<() => Promise<void>> {
    const name = `fail_${table}_${randomUUID().replaceAll('-', '')}`;
    await database().transaction((tx) =>
      tx.executeScript(`
      CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.${column}::text = '${value}' THEN RAISE EXCEPTION 'planted failure'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();`),
    );
    return () => database().transaction((tx) => tx.executeScript(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}();`));
  }

  /** A customer with an active loan of $100.00 over 6 months (its first instalment $17.25), its first instalment due today. */
  async function borrower(fundCents: bigint): Promise<{ who: PayingCustomer; loanId: string; today: string }> {
    const operations = (await staffBrowser(app, database(), config, 'operations')).browser;
    const who = await kit.customer({ fundCents });
    const loanId = await activeLoan(who.browser, operations, { reason: 'Income supports it', amountCents: 10_000, aprBps: 1_200, termMonths: 6 });
    const today = bankToday(config.bankTimeZone);
    await database().query('UPDATE loan_instalments SET due_date = $2::date WHERE loan_id = $1 AND number = 1', [loanId, today]);
    return { who, loanId, today };
  }

  const loanDependencies = () => ({ db: database(), liveEvents: app.services.liveEvents, config });
  const instalmentStatus = async (loanId: string) =>
    (await database().query<{ status: string }>('SELECT status FROM loan_instalments WHERE loan_id = $1 AND number = 1', [loanId]))[0]?.status;
  const repaymentLines = (customerId: string) =>
    count("SELECT count(*)::int AS n FROM payments WHERE customer_id = $1 AND kind = 'loan_repayment'", [customerId]);
  const repaymentTransfers = async (who: PayingCustomer) =>
    count('SELECT count(*)::int AS n FROM ledger_transfers WHERE code = $1 AND credit_account_id = $2 AND debit_account_id = $3', [
      transferCodes.loanRepayment,
      operatorAccounts.loansReceivable,
      await ledgerAccountOf(who.checking.id),
    ]);

  it('a loan instalment whose ledger transfer is refused leaves no payment row and no instalment marked paid: it is late, and told once', async () => {
    const { who, loanId, today } = await borrower(0n);
    // Everything the loan paid in leaves checking, so the instalment finds no money.
    const moved = await kit.pay(who, '/transfers', { kind: 'own', fromAccountId: who.checking.id, toAccountId: who.savings.id, amountCents: 10_000 });
    expect(moved.statusCode, moved.body).toBe(201);

    for (const run of [1, 2]) {
      await runLoanRepayments(loanDependencies(), today);
      expect(await instalmentStatus(loanId), `run ${run}`).toBe('late');
      expect(await repaymentLines(who.id)).toBe(0);
      expect(await count('SELECT count(*)::int AS n FROM loan_repayments WHERE loan_id = $1', [loanId])).toBe(0);
      expect(await repaymentTransfers(who)).toBe(0);
    }
    expect(await count("SELECT count(*)::int AS n FROM notifications WHERE customer_id = $1 AND name = 'Loan instalment late'", [who.id])).toBe(1);
    // The refusal committed with the lateness: the same derived id answers the same refusal today.
    const repaymentId = derivedUuid('loan-instalment', loanId, '1', today);
    expect(await count('SELECT count(*)::int AS n FROM ledger_failed_transfers WHERE id = $1', [repaymentId])).toBe(1);
  });

  it('a loan instalment whose booking fails after the ledger took it moves no money; the rerun takes it once under the same id', async () => {
    const { who, loanId, today } = await borrower(5_000n);
    const repaymentId = derivedUuid('loan-instalment', loanId, '1', today);
    const restore = await failInserts('loan_repayments', 'id', repaymentId);
    try {
      await expect(runLoanRepayments(loanDependencies(), today)).rejects.toThrow(/planted failure/);
    } finally {
      await restore();
    }
    // Before decision 065 the ledger had committed the money here, and only the line was missing.
    expect((await lookupTransfers(database(), [repaymentId])).length).toBe(0);
    expect(await repaymentLines(who.id)).toBe(0);
    expect(await instalmentStatus(loanId)).toBe('due');
    expect((await kit.balances(who)).checking.balanceCents).toBe(15_000);
    await database().query('UPDATE loans SET busy_until = NULL WHERE id = $1', [loanId]);

    // Run twice the same day (the other loans of this suite are collected too: only this one is counted).
    for (let run = 0; run < 2; run += 1) await runLoanRepayments(loanDependencies(), today);
    expect(await instalmentStatus(loanId)).toBe('paid');
    expect((await lookupTransfers(database(), [repaymentId])).map((transfer) => transfer.id)).toEqual([repaymentId]);
    expect(await repaymentTransfers(who)).toBe(1);
    expect(await repaymentLines(who.id)).toBe(1);
    expect((await kit.balances(who)).checking.balanceCents).toBe(15_000 - 1_725);
  });

  it('migration 0038 writes, once, the disbursement line and notice a split before 065 left missing, as the acceptance writes them', async () => {
    const { who, loanId, today } = await borrower(0n);
    const [loan] = await database().query<{ disbursement_transfer_id: string }>('SELECT disbursement_transfer_id FROM loans WHERE id = $1', [loanId]);
    const transferId = loan!.disbursement_transfer_id;
    const lineColumns = 'id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name, message';
    const lineOf = async () => (await database().query(`SELECT ${lineColumns} FROM payments WHERE id = $1`, [transferId]))[0];
    const noticesOf = () => database().query('SELECT customer_id, kind, name, text, link, payment_id FROM notifications WHERE payment_id = $1', [transferId]);
    const written = { line: await lineOf(), notices: await noticesOf() };
    expect(written.notices).toHaveLength(1);
    // What a crash between the two transactions before 065 left: the transfer, without its line and notice.
    await database().query('DELETE FROM notifications WHERE payment_id = $1', [transferId]);
    await database().query('DELETE FROM payments WHERE id = $1', [transferId]);
    const migration = await readFile(new URL('../../db/migrations/0038_finish_loan_disbursement_lines.sql', import.meta.url), 'utf8');
    for (let run = 0; run < 2; run += 1) await database().transaction((tx) => tx.executeScript(migration));
    expect(await lineOf()).toEqual(written.line);
    // borrower() moved the first instalment to today after the acceptance's notice named its first due date.
    const asWritten = (written.notices as { text: string }[]).map((notice) => ({
      ...notice,
      text: notice.text.replace(/due on [0-9-]+\./, `due on ${today}.`),
    }));
    expect(await noticesOf()).toEqual(asWritten);
    expect((await kit.balances(who)).checking.balanceCents).toBe(10_000);
  });

  it('a rerun of a movement with the same derived id moves money once, and finishes the line of one a run before 065 left in the ledger only', async () => {
    const dana = await kit.customer({ fundCents: 0n });
    const movement = (id: string): MoneyMovement => ({
      id,
      kind: 'referral_bonus',
      customerId: dana.id,
      fromAccountId: null,
      toAccountId: dana.checking.id,
      amountCents: 1_000n,
      counterpartyName: config.bankName,
      message: 'Referral bonus',
      notifications: [{ customerId: dana.id, kind: 'referral', name: 'Bonus for the test', text: 'A bonus.', link: '/invite', paymentId: id }],
    });
    const id = derivedUuid('move-money-test', dana.id);
    const first = await database().transaction((tx) => moveMoney(tx, movement(id)));
    const second = await database().transaction((tx) => moveMoney(tx, movement(id)));
    expect(first).toMatchObject({ outcome: 'made', already: false, row: { id, status: 'completed', kind: 'referral_bonus' } });
    expect(second).toMatchObject({ outcome: 'made', already: true, row: { id } });
    expect(await count('SELECT count(*)::int AS n FROM ledger_transfers WHERE id = $1', [id])).toBe(1);
    expect(await count('SELECT count(*)::int AS n FROM payments WHERE id = $1', [id])).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM notifications WHERE customer_id = $1 AND name = 'Bonus for the test'", [dana.id])).toBe(1);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(1_000);

    // A transfer the ledger holds without its line (the split before decision 065): the line is written, nothing moves again.
    const legacy = derivedUuid('move-money-test-legacy', dana.id);
    const [outcome] = await createTransfers(database(), [
      {
        id: legacy,
        debitAccountId: operatorAccounts.marketingExpense,
        creditAccountId: await ledgerAccountOf(dana.checking.id),
        amountCents: 1_000n,
        ledger: ledgers.usd,
        code: transferCodes.referralBonus,
      },
    ]);
    expect(outcome?.result).toBe('ok');
    const finished = await database().transaction((tx) => moveMoney(tx, movement(legacy)));
    expect(finished).toMatchObject({ outcome: 'made', already: false, row: { id: legacy, status: 'completed' } });
    expect(await count('SELECT count(*)::int AS n FROM ledger_transfers WHERE id = $1', [legacy])).toBe(1);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(2_000);
  });

  it('refuses a movement without the money as a value, leaving the caller to decide; rolled back, nothing of it remains', async () => {
    const dana = await kit.customer({ fundCents: 500n });
    const id = derivedUuid('move-money-refused', dana.id);
    const refusal = new Error('rolled back by the caller');
    const answered: unknown[] = [];
    await expect(
      database().transaction(async (tx) => {
        answered.push(
          await moveMoney(tx, {
            id,
            kind: 'loan_repayment',
            customerId: dana.id,
            fromAccountId: dana.checking.id,
            toAccountId: null,
            amountCents: 1_000n,
            counterpartyName: 'Strongroom loan',
            message: 'Loan repayment',
            legs: [{ id: derivedUuid('move-money-refused-interest', dana.id), kind: 'loan_interest', amountCents: 100n }],
          }),
        );
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(answered).toEqual([{ outcome: 'refused', code: 'insufficient_funds' }]);
    expect(await count('SELECT count(*)::int AS n FROM payments WHERE id = $1', [id])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM ledger_transfers WHERE id = $1', [id])).toBe(0);
    expect((await kit.balances(dana)).checking.balanceCents).toBe(500);
  });

  it('a referral bonus row and its transfer commit together: a failure while booking it leaves neither, and the next settlement pays it once', async () => {
    const referrer = await kit.customer({ fundCents: 0n });
    const friend = await insertBareCustomer(database());
    await recordReferral(database(), referrer.id, friend);
    const [referral] = await database().query<{ id: string }>('SELECT id FROM referrals WHERE referred_customer_id = $1', [friend]);
    const bonusId = bonusTransferIdOf(friend);
    const identity = { db: database(), mailer: app.services.mailer, bankName: config.bankName, liveEvents: app.services.liveEvents };
    const reviewId = await waitingIdentityReview(database(), config.secrets.encryptionKey, friend);

    // The bonus's audit entry fails: the friend's approval stands, and the bonus is not paid at all.
    const restore = await failInserts('audit_log', 'subject', referral!.id);
    try {
      await expect(decideIdentity(identity, { reviewId, decision: 'approved', decidedBy: 'sandbox' })).rejects.toThrow(/planted failure/);
    } finally {
      await restore();
    }
    expect(await count('SELECT count(*)::int AS n FROM ledger_transfers WHERE id = $1', [bonusId])).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM payments WHERE id = $1', [bonusId])).toBe(0);
    expect((await database().query<{ status: string }>('SELECT status FROM referrals WHERE id = $1', [referral!.id]))[0]?.status).toBe('pending');
    expect((await kit.balances(referrer)).checking.balanceCents).toBe(0);

    for (const run of [1, 2]) expect(await settleReferralBonuses(identity, friend), `run ${run}`).toBe(run === 1 ? 1 : 0);
    expect(await count('SELECT count(*)::int AS n FROM ledger_transfers WHERE id = $1', [bonusId])).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM payments WHERE id = $1 AND kind = 'referral_bonus' AND status = 'completed'", [bonusId])).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM audit_log WHERE action = 'referral.bonus_paid' AND subject = $1", [referral!.id])).toBe(1);
    expect(await count("SELECT count(*)::int AS n FROM notifications WHERE customer_id = $1 AND name = 'Referral bonus'", [referrer.id])).toBe(1);
    expect((await kit.balances(referrer)).checking.balanceCents).toBe(1_000);
  });
});
