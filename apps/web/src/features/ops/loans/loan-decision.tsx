import { useState, type FormEvent } from 'react';
import { loanRules, type LoanDecisionRequest, type StaffLoan } from '@strongroom/contracts/loans.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { parseDollarsToCents } from '@strongroom/contracts/money-input.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { formatAprPercent, monthlyPaymentCents, parseAprPercentToBps, parseTermMonths, type Parsed } from './loan-terms.ts';
import { useLoanDecision } from './loans-api.ts';

/** The approved amount: dollars typed, at most what the customer asked for. */
export function parseApprovedAmount(text: string, requestedCents: number): Parsed<number> {
  if (text.trim() === '') return { ok: false, message: validationMessages.required };
  const parsed = parseDollarsToCents(text);
  if (!parsed.ok) return { ok: false, message: parsed.reason === 'invalid' ? validationMessages.numberInvalid : validationMessages.amountInvalid };
  if (parsed.cents > requestedCents) return { ok: false, message: `at most the ${formatMoney(requestedCents)} asked for` };
  return { ok: true, value: parsed.cents };
}

function reasonError(reason: string): string | undefined {
  const checked = decisionReasonField.safeParse(reason);
  return checked.success ? undefined : (checked.error.issues[0]?.message ?? validationMessages.required);
}

interface ApproveErrors {
  amount?: string;
  apr?: string;
  term?: string;
  reason?: string;
}

function ConfirmDialog({ application, body, onClose }: { application: StaffLoan; body: LoanDecisionRequest; onClose: (decided: boolean) => void }) {
  const decide = useLoanDecision();
  const [outcome, setOutcome] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const name = application.customerName;

  async function confirm() {
    setFailure(null);
    try {
      const decided = await decide.mutateAsync({ id: application.loan.id, body });
      setOutcome(
        decided.loan.status === 'rejected'
          ? `${name}'s application was rejected. The customer is told.`
          : `${name} is offered ${formatMoney(decided.loan.amountCents ?? 0)}. Nothing is paid until they accept; the offer lapses in ${loanRules.offerWindowDays} days. The customer is told.`,
      );
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The decision was not recorded');
    }
  }

  const approval = body.decision === 'approve' ? body : null;
  const paymentCents = approval ? monthlyPaymentCents(approval.amountCents, approval.aprBps, approval.termMonths) : null;
  const title = approval
    ? `Approve and offer ${formatMoney(approval.amountCents)} to ${name}?`
    : `Reject ${name}'s application for ${formatMoney(application.loan.requestedAmountCents)}?`;
  const confirmLabel = approval ? `Approve and offer ${formatMoney(approval.amountCents)}` : 'Reject application';
  return (
    <Dialog
      open
      onClose={() => onClose(outcome !== null)}
      dismissible={!decide.isPending}
      title={title}
      description={outcome ? undefined : 'This cannot be undone. The customer is told, and the decision is audited with your reason.'}
      footer={
        outcome ? (
          <Button onClick={() => onClose(true)}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={() => onClose(false)} disabled={decide.isPending}>
              Cancel
            </Button>
            <Button variant={approval ? 'primary' : 'danger'} loading={decide.isPending} onClick={() => void confirm()}>
              {confirmLabel}
            </Button>
          </>
        )
      }
    >
      {outcome ? (
        <Notice tone="success" role="status">
          <p>{outcome}</p>
        </Notice>
      ) : (
        <>
          {approval && paymentCents !== null ? (
            <dl className="loan-decision__terms">
              <dt>Amount</dt>
              <dd className="tabular">{formatMoney(approval.amountCents)}</dd>
              <dt>APR</dt>
              <dd className="tabular">{formatAprPercent(approval.aprBps)}</dd>
              <dt>Term</dt>
              <dd>{approval.termMonths} months</dd>
              <dt>Monthly payment</dt>
              <dd className="tabular loan-decision__payment">{formatMoney(paymentCents)}</dd>
            </dl>
          ) : null}
          <p className="loan-decision__reason">Reason: {body.reason}</p>
          {failure ? (
            <Notice tone="error" role="alert">
              <p>{failure}</p>
            </Notice>
          ) : null}
        </>
      )}
    </Dialog>
  );
}

/**
 * The decision where the facts are: approve with amount (up to the request), APR and term, or
 * reject; each with a reason. The button says what will happen; a confirmation with the resulting
 * monthly payment comes before anything is sent.
 */
export function LoanDecision({ application, onDecided }: { application: StaffLoan; onDecided: () => void }) {
  const { loan } = application;
  const [amount, setAmount] = useState(formatMoney(loan.requestedAmountCents, 'decimal'));
  const [apr, setApr] = useState(formatAprPercent(application.suggestedAprBps).replace('%', ''));
  const [term, setTerm] = useState(String(loan.durationMonths));
  const [approveReason, setApproveReason] = useState('');
  const [rejectReason, setRejectReason] = useState('');
  const [approveErrors, setApproveErrors] = useState<ApproveErrors>({});
  const [rejectError, setRejectError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<LoanDecisionRequest | null>(null);

  const amountParsed = parseApprovedAmount(amount, loan.requestedAmountCents);
  const aprParsed = parseAprPercentToBps(apr);
  const termParsed = parseTermMonths(term);
  const preview =
    amountParsed.ok && aprParsed.ok && termParsed.ok && amountParsed.value > 0
      ? monthlyPaymentCents(amountParsed.value, aprParsed.value, termParsed.value)
      : null;

  function onApprove(event: FormEvent) {
    event.preventDefault();
    const errors: ApproveErrors = {
      amount: amountParsed.ok ? undefined : amountParsed.message,
      apr: aprParsed.ok ? undefined : aprParsed.message,
      term: termParsed.ok ? undefined : termParsed.message,
      reason: reasonError(approveReason),
    };
    setApproveErrors(errors);
    if (!amountParsed.ok || !aprParsed.ok || !termParsed.ok || errors.reason) return;
    setConfirming({
      decision: 'approve',
      reason: approveReason.trim(),
      amountCents: amountParsed.value,
      aprBps: aprParsed.value,
      termMonths: termParsed.value,
    });
  }

  function onReject(event: FormEvent) {
    event.preventDefault();
    const error = reasonError(rejectReason);
    setRejectError(error);
    if (!error) setConfirming({ decision: 'reject', reason: rejectReason.trim() });
  }

  return (
    <div className="loan-decision">
      <form className="loan-decision__form" noValidate onSubmit={onApprove} aria-labelledby="approve-title">
        <h3 id="approve-title">Approve</h3>
        <div className="loan-decision__fields">
          <TextField
            label="Amount"
            hint={`Dollars, up to ${formatMoney(loan.requestedAmountCents)}`}
            inputMode="decimal"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            error={approveErrors.amount}
            required
          />
          <TextField
            label="APR (%)"
            hint="0 to 36, two decimals at most"
            inputMode="decimal"
            value={apr}
            onChange={(event) => setApr(event.target.value)}
            error={approveErrors.apr}
            required
          />
          <TextField
            label="Term (months)"
            hint="1 to 84"
            inputMode="numeric"
            value={term}
            onChange={(event) => setTerm(event.target.value)}
            error={approveErrors.term}
            required
          />
        </div>
        <p className="loan-decision__preview" aria-live="polite">
          {preview !== null ? (
            <>
              Monthly payment: <strong className="tabular">{formatMoney(preview)}</strong>
            </>
          ) : (
            'Monthly payment: enter the terms'
          )}
        </p>
        <TextAreaField
          label="Reason for approval"
          rows={2}
          maxLength={500}
          value={approveReason}
          onChange={(event) => setApproveReason(event.target.value)}
          error={approveErrors.reason}
          required
        />
        <Button type="submit">{amountParsed.ok ? `Approve ${formatMoney(amountParsed.value)}` : 'Approve'}</Button>
      </form>
      <form className="loan-decision__form" noValidate onSubmit={onReject} aria-labelledby="reject-title">
        <h3 id="reject-title">Reject</h3>
        <TextAreaField
          label="Reason for rejection"
          hint="The customer reads it."
          rows={2}
          maxLength={500}
          value={rejectReason}
          onChange={(event) => setRejectReason(event.target.value)}
          error={rejectError}
          required
        />
        <Button type="submit" variant="danger">
          Reject
        </Button>
      </form>
      {confirming ? (
        <ConfirmDialog
          application={application}
          body={confirming}
          onClose={(decided) => {
            setConfirming(null);
            if (decided) onDecided();
          }}
        />
      ) : null}
    </div>
  );
}
