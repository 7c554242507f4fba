import { useState, type FormEvent } from 'react';
import { loanRules, type LoanDecisionRequest, type StaffLoan } from '@strongroom/contracts/loans.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { parseDollarsToCents } from '@strongroom/contracts/money-input.ts';
import { decisionReasonField } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { formatAprPercent, monthlyPaymentCents, parseAprPercentToBps, parseTermMonths, type Parsed } from './loan-terms.ts';
import { useLoanDecision } from './loans-api.ts';
import { OutcomeDialog } from '../outcome-dialog.tsx';

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
    <OutcomeDialog
      title={title}
      description="This cannot be undone. The customer is told, and the decision is audited with your reason."
      outcome={outcome ? <p>{outcome}</p> : null}
      confirmLabel={confirmLabel}
      confirmVariant={approval ? 'primary' : 'danger'}
      busy={decide.isPending}
      onConfirm={() => void confirm()}
      onClose={() => onClose(outcome !== null)}
      onCancel={() => onClose(false)}
      onDone={() => onClose(true)}
    >
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
    </OutcomeDialog>
  );
}

/** Approve: amount (up to the request), APR and term, the monthly payment they make, and a reason. */
function ApproveForm({ application, onReview }: { application: StaffLoan; onReview: (body: LoanDecisionRequest) => void }) {
  const { loan } = application;
  const [amount, setAmount] = useState(formatMoney(loan.requestedAmountCents, 'decimal'));
  const [apr, setApr] = useState(formatAprPercent(application.suggestedAprBps).replace('%', ''));
  const [term, setTerm] = useState(String(loan.durationMonths));
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<ApproveErrors>({});

  const amountParsed = parseApprovedAmount(amount, loan.requestedAmountCents);
  const aprParsed = parseAprPercentToBps(apr);
  const termParsed = parseTermMonths(term);
  const preview =
    amountParsed.ok && aprParsed.ok && termParsed.ok && amountParsed.value > 0
      ? monthlyPaymentCents(amountParsed.value, aprParsed.value, termParsed.value)
      : null;
  const termFields = [
    { key: 'amount', label: 'Amount', hint: `Dollars, up to ${formatMoney(loan.requestedAmountCents)}`, inputMode: 'decimal', value: amount, set: setAmount },
    { key: 'apr', label: 'APR (%)', hint: '0 to 36, two decimals at most', inputMode: 'decimal', value: apr, set: setApr },
    { key: 'term', label: 'Term (months)', hint: '1 to 84', inputMode: 'numeric', value: term, set: setTerm },
  ] as const;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found: ApproveErrors = {
      amount: amountParsed.ok ? undefined : amountParsed.message,
      apr: aprParsed.ok ? undefined : aprParsed.message,
      term: termParsed.ok ? undefined : termParsed.message,
      reason: reasonError(reason),
    };
    setErrors(found);
    if (!amountParsed.ok || !aprParsed.ok || !termParsed.ok || found.reason) return;
    onReview({ decision: 'approve', reason: reason.trim(), amountCents: amountParsed.value, aprBps: aprParsed.value, termMonths: termParsed.value });
  }

  return (
    <form className="loan-decision__form" noValidate onSubmit={onSubmit} aria-labelledby="approve-title">
      <h3 id="approve-title">Approve</h3>
      <div className="loan-decision__fields">
        {termFields.map((field) => (
          <TextField
            key={field.key}
            label={field.label}
            hint={field.hint}
            inputMode={field.inputMode}
            value={field.value}
            onChange={(event) => field.set(event.target.value)}
            error={errors[field.key]}
            required
          />
        ))}
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
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={errors.reason}
        required
      />
      <Button type="submit">{amountParsed.ok ? `Approve ${formatMoney(amountParsed.value)}` : 'Approve'}</Button>
    </form>
  );
}

/** Reject, with a reason the customer reads. */
function RejectForm({ onReview }: { onReview: (body: LoanDecisionRequest) => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const found = reasonError(reason);
    setError(found);
    if (!found) onReview({ decision: 'reject', reason: reason.trim() });
  }

  return (
    <form className="loan-decision__form" noValidate onSubmit={onSubmit} aria-labelledby="reject-title">
      <h3 id="reject-title">Reject</h3>
      <TextAreaField
        label="Reason for rejection"
        hint="The customer reads it."
        rows={2}
        maxLength={500}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        error={error}
        required
      />
      <Button type="submit" variant="danger">
        Reject
      </Button>
    </form>
  );
}

/**
 * The decision where the facts are: approve with amount (up to the request), APR and term, or
 * reject; each with a reason. The button says what will happen; a confirmation with the resulting
 * monthly payment comes before anything is sent.
 */
export function LoanDecision({ application, onDecided }: { application: StaffLoan; onDecided: () => void }) {
  const [confirming, setConfirming] = useState<LoanDecisionRequest | null>(null);
  return (
    <div className="loan-decision">
      <ApproveForm application={application} onReview={setConfirming} />
      <RejectForm onReview={setConfirming} />
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
