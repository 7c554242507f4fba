import { useState, type FormEvent } from 'react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { Loan } from '@strongroom/contracts/loans.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { parseDollarsToCents } from '@strongroom/contracts/money-input.ts';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { NoAccountNotice } from '../../components/no-account-notice.tsx';
import { Button } from '../../components/ui/button.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { ApiError } from '../../lib/api-client.ts';
import { settlesSubmission, useSubmissionKey } from '../../lib/idempotency-key.ts';
import { useLoanRepayment } from './api/loans-api.ts';

const amountMessages = {
  invalid: validationMessages.numberInvalid,
  not_positive: validationMessages.amountNotPositive,
  fractional_cent: validationMessages.amountFractionalCent,
  too_large: validationMessages.amountTooLarge,
} as const;

/** The typed amount in cents, or why it cannot be paid: empty, not a number, more than is owed. */
export function checkRepaymentAmount(text: string, payoffCents: number): { ok: true; cents: number } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: validationMessages.required };
  const parsed = parseDollarsToCents(text);
  if (!parsed.ok) return { ok: false, message: amountMessages[parsed.reason] };
  if (parsed.cents > payoffCents) return { ok: false, message: `you owe ${formatMoney(payoffCents)}: pay at most that` };
  return parsed;
}

function accountName(account: Account): string {
  return `${account.name} ${account.number}`;
}

interface Confirming {
  account: Account;
  amountCents: number;
}

/** The typed amount, the chosen account and the payment itself, confirmed first and sent once. */
function useRepayment(loan: Loan, payoffCents: number, onPaid: (message: string) => void) {
  const repay = useLoanRepayment(loan.id);
  const submissionKey = useSubmissionKey();
  const [accountId, setAccountId] = useState('');
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  function review(account: Account) {
    const checked = checkRepaymentAmount(amount, payoffCents);
    if (!checked.ok) {
      setAmountError(checked.message);
      return;
    }
    setAmountError(undefined);
    setFailure(null);
    setConfirming({ account, amountCents: checked.cents });
  }

  async function pay(choice: Confirming) {
    const body = { fromAccountId: choice.account.id, amountCents: choice.amountCents };
    try {
      const { loan: after } = await repay.mutateAsync({ body, idempotencyKey: submissionKey.keyFor(body) });
      submissionKey.release();
      setConfirming(null);
      setAmount('');
      onPaid(
        after.status === 'paid_off'
          ? `You paid ${formatMoney(choice.amountCents)}. Your loan is paid off.`
          : `You paid ${formatMoney(choice.amountCents)}. You now owe ${formatMoney(after.balanceCents ?? 0)}.`,
      );
    } catch (error) {
      if (error instanceof ApiError && settlesSubmission(error)) submissionKey.release();
      setConfirming(null);
      setFailure(error instanceof Error ? error.message : 'The payment was not made');
    }
  }

  return { paying: repay.isPending, accountId, setAccountId, amount, setAmount, amountError, confirming, setConfirming, failure, review, pay };
}

/** The payoff and where a payment goes: to the late amount first, then to principal. */
function RepaymentLead({ payoffCents, lateCents }: { payoffCents: number; lateCents: number }) {
  return (
    <>
      <p className="loan-repay__payoff">
        Payoff amount: <strong className="tabular">{formatMoney(payoffCents)}</strong>
      </p>
      {lateCents > 0 ? (
        <p className="loan-repay__hint">
          A payment goes to the late amount first (<strong className="tabular">{formatMoney(lateCents)}</strong>); anything above it goes to principal, so you
          pay less interest and finish sooner.
        </p>
      ) : (
        <p className="loan-repay__hint">An early payment goes to principal first, so you pay less interest and finish sooner.</p>
      )}
    </>
  );
}

/**
 * Paying early (the page shows the outcome: a payment that closes the loan also removes this form): from one of the customer's accounts, any amount up to the payoff. The money goes to
 * principal first, so the schedule gets shorter; paying the payoff closes the loan. A confirmation
 * comes first; the Idempotency-Key makes a retry of the same payment move the money once.
 */
export function RepaymentForm({
  loan,
  onPaid,
  payoffCents = loan.balanceCents ?? 0,
  lateCents = 0,
}: {
  loan: Loan;
  onPaid: (message: string) => void;
  /** What pays the loan off: the late instalments in full and the principal not yet due (the balance when nothing is late). */
  payoffCents?: number;
  /** What the late instalments still owe: a payment goes there first. */
  lateCents?: number;
}) {
  const accounts = useAccounts();
  const repayment = useRepayment(loan, payoffCents, onPaid);
  const { confirming, setConfirming } = repayment;

  if (accounts.isPending) {
    return (
      <p aria-busy="true">
        <Spinner size="sm" /> Loading your accounts…
      </p>
    );
  }
  if (accounts.isError) return <LoadFailed title="We could not load your accounts" headingLevel={3} query={accounts} />;
  const account = accounts.data.find((item) => item.id === repayment.accountId) ?? accounts.data[0];
  if (!account) return <NoAccountNotice />;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (account) repayment.review(account);
  }

  const title = lateCents > 0 ? 'Pay now' : 'Pay early';
  return (
    <section className="loan-repay" aria-labelledby="repay-title">
      <h2 id="repay-title" className="loans__section-title">
        {title}
      </h2>
      <RepaymentLead payoffCents={payoffCents} lateCents={lateCents} />
      {repayment.failure ? (
        <Notice tone="error" role="alert">
          <p>{repayment.failure}</p>
        </Notice>
      ) : null}
      <form className="loan-repay__form" noValidate onSubmit={onSubmit} aria-label={title}>
        <SelectField
          label="From account"
          options={accounts.data.map((item) => ({ value: item.id, label: `${accountName(item)} (${formatMoney(item.availableCents)} available)` }))}
          value={account.id}
          onChange={(event) => repayment.setAccountId(event.target.value)}
        />
        <TextField
          label="Amount"
          hint="In dollars, up to the payoff amount"
          inputMode="decimal"
          autoComplete="off"
          required
          value={repayment.amount}
          error={repayment.amountError}
          onChange={(event) => repayment.setAmount(event.target.value)}
        />
        <div className="loan-repay__actions">
          <Button type="submit">Review payment</Button>
          <Button variant="secondary" onClick={() => repayment.setAmount(formatMoney(payoffCents, 'decimal'))}>
            Pay off in full
          </Button>
        </div>
      </form>
      {confirming ? (
        <ConfirmDialog
          title={`Pay ${formatMoney(confirming.amountCents)} to your loan?`}
          description={
            confirming.amountCents === payoffCents
              ? `From ${accountName(confirming.account)}. This pays the loan off in full.`
              : `From ${accountName(confirming.account)}. You will owe ${formatMoney(payoffCents - confirming.amountCents)} after it.`
          }
          confirmLabel={<>Pay {formatMoney(confirming.amountCents)}</>}
          busy={repayment.paying}
          onConfirm={() => void repayment.pay(confirming)}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
