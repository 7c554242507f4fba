import { useEffect, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import type { StaffDispute } from '@strongroom/contracts/disputes.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { useDisputeAction, type DisputeAction } from './disputes-api.ts';
import { planOf, type DisputeActionField, type DisputeActionForm, type DisputeActionKind } from './dispute-action-plan.ts';
import { refusalInWords } from './dispute-words.ts';

const fieldLabels: Record<DisputeActionField, { label: string; rows: number; maxLength: number }> = {
  question: { label: 'Question for the customer (they read it)', rows: 4, maxLength: 1000 },
  explanation: { label: 'Explanation for the customer (the result letter says it)', rows: 5, maxLength: 2000 },
  reason: { label: 'Reason (kept in the audit log)', rows: 3, maxLength: 500 },
};

const confirmLabelsOf: Record<DisputeActionField, string> = { question: 'Question', explanation: 'Explanation', reason: 'Reason' };

/** The last look before the request: what happens and what was written, then the button that does it. */
function ConfirmStep(props: {
  lines: readonly string[];
  failure: string | undefined;
  busy: boolean;
  confirmLabel: string;
  danger: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const { lines, failure, busy, confirmLabel, danger, onBack, onConfirm } = props;
  const headingRef = useRef<HTMLParagraphElement>(null);
  // The form's Review button is hidden now: focus goes to what is to be read.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="dispute-action-form">
      <p ref={headingRef} tabIndex={-1}>
        <strong>Please confirm: this cannot be undone.</strong>
      </p>
      <ul>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {failure ? (
        <Notice tone="error" role="alert">
          {failure}
        </Notice>
      ) : null}
      <div className="dispute-action-form__buttons">
        <Button variant="secondary" onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button onClick={onConfirm} loading={busy} variant={danger ? 'danger' : 'primary'}>
          {confirmLabel}
        </Button>
      </div>
    </div>
  );
}

export interface DisputeActionDialogProps {
  kind: DisputeActionKind;
  dispute: StaffDispute;
  onClose: () => void;
  /** The action done: what happened, in words, and whether it waits for a second person. */
  onDone: (outcome: { message: string; awaitingApproval: boolean }) => void;
}

/**
 * One action on a case: its fields, checked as the server checks them (the reason 3 to 500
 * characters), then a confirmation that says what will happen, then the request.
 */
export function DisputeActionDialog({ kind, dispute, onClose, onDone }: DisputeActionDialogProps) {
  const plan = planOf(kind, dispute);
  const run = useDisputeAction(dispute.id);
  const [form, setForm] = useState<DisputeActionForm>({ question: '', explanation: '', reason: '' });
  const [errors, setErrors] = useState<Partial<Record<DisputeActionField, string>>>({});
  const [confirming, setConfirming] = useState<DisputeAction | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  /** After a refusal, the first field it names; back from the confirmation, the first field. */
  function focusField(selector: string) {
    formRef.current?.querySelector<HTMLElement>(selector)?.focus();
  }

  function review(event: FormEvent) {
    event.preventDefault();
    const checked = plan.check(form);
    if ('errors' in checked) {
      flushSync(() => setErrors(checked.errors));
      focusField('[aria-invalid="true"]');
      return;
    }
    setErrors({});
    run.reset();
    setConfirming(checked.action);
  }

  function confirm() {
    if (!confirming) return;
    run.mutate(confirming, {
      onSuccess: (answer) =>
        onDone(
          answer.awaitingApproval
            ? { message: 'Waiting for a second person: your decision is recorded, and another staff member must approve it.', awaitingApproval: true }
            : { message: `${plan.title}: done.`, awaitingApproval: false },
        ),
    });
  }

  return (
    <Dialog open onClose={onClose} dismissible={!run.isPending} title={plan.title} size="lg">
      <form ref={formRef} noValidate onSubmit={review} className="dispute-action-form" hidden={confirming !== null} aria-label={plan.title}>
        {plan.consequences.map((line) => (
          <p key={line}>{line}</p>
        ))}
        {plan.fields.map((field, index) => (
          <TextAreaField
            key={field}
            label={fieldLabels[field].label}
            rows={fieldLabels[field].rows}
            maxLength={fieldLabels[field].maxLength}
            value={form[field]}
            onChange={(event) => setForm((current) => ({ ...current, [field]: event.target.value }))}
            error={errors[field]}
            data-autofocus={index === 0 ? true : undefined}
          />
        ))}
        <div className="dispute-action-form__buttons">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Review</Button>
        </div>
      </form>
      {confirming ? (
        <ConfirmStep
          lines={[...plan.consequences, ...plan.fields.map((field) => `${confirmLabelsOf[field]}: ${form[field].trim()}`)]}
          failure={run.error ? refusalInWords(run.error) : undefined}
          busy={run.isPending}
          confirmLabel={plan.confirmLabel}
          danger={kind === 'deny'}
          onBack={() => {
            // The Back button goes with the confirmation: focus returns to the form.
            flushSync(() => setConfirming(null));
            focusField('textarea');
          }}
          onConfirm={confirm}
        />
      ) : null}
    </Dialog>
  );
}
