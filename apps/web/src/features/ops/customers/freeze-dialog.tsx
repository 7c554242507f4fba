import { useId, useState, type FormEvent } from 'react';
import { freezeCustomerMessageLimits, freezeCustomerMessages, freezeRequestSchema, type FreezeRequest } from '@strongroom/contracts/staff-customers.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { DialogFormActions, type CustomerActionDialogProps } from './dialog-form-actions.tsx';

export interface FreezeDialogProps extends CustomerActionDialogProps {
  onConfirm: (request: { reason: string; customerMessage: string }) => void;
}

type FieldErrors = Partial<Record<keyof FreezeRequest, string>>;

/**
 * Freezing asks for two texts (decision 053): the internal reason, for staff and the audit log
 * only, and the message the customer reads, chosen from the contract's short list and editable.
 * The customer never sees the reason, so a customer under review is not tipped off.
 */
export function FreezeDialog({ open, title, consequence, confirmLabel, busy, error, onConfirm, onClose }: FreezeDialogProps) {
  const [reason, setReason] = useState('');
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [customerMessage, setCustomerMessage] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const legendId = useId();
  const template = freezeCustomerMessages.find((item) => item.id === templateId);
  const editedFrom = template && customerMessage !== template.text ? template.label : null;

  function choose(id: string) {
    const chosen = freezeCustomerMessages.find((item) => item.id === id);
    if (!chosen) return;
    setTemplateId(chosen.id);
    setCustomerMessage(chosen.text);
    setFieldErrors((errors) => ({ ...errors, customerMessage: undefined }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = freezeRequestSchema.safeParse({ reason, customerMessage });
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'reason' || field === 'customerMessage') && !errors[field]) errors[field] = issue.message;
      }
      setFieldErrors(errors);
      return;
    }
    setFieldErrors({});
    onConfirm(parsed.data);
  }

  function close() {
    setReason('');
    setTemplateId(null);
    setCustomerMessage('');
    setFieldErrors({});
    onClose();
  }

  return (
    <Dialog open={open} onClose={close} title={title} description={consequence} dismissible={!busy} size="lg">
      <form onSubmit={submit} noValidate className="freeze-dialog">
        <TextAreaField
          label="Internal reason (staff and the audit log only; never shown to the customer)"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          error={fieldErrors.reason}
          rows={3}
          maxLength={500}
          data-autofocus
        />
        <fieldset className="freeze-dialog__templates" aria-labelledby={legendId}>
          <legend id={legendId} className="field__label">
            Message to the customer
          </legend>
          {freezeCustomerMessages.map((item) => (
            <label key={item.id} className="freeze-dialog__template">
              <input type="radio" name="customer-message-template" value={item.id} checked={templateId === item.id} onChange={() => choose(item.id)} />
              <span>
                <span className="freeze-dialog__template-label">{item.label}</span>
                <span className="freeze-dialog__template-text">{item.text}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <TextAreaField
          label="What the customer sees (you can edit it)"
          hint={`Shown in their banner and notification. ${customerMessage.length} / ${freezeCustomerMessageLimits.maxLength} characters${editedFrom ? `, edited from “${editedFrom}”` : ''}.`}
          value={customerMessage}
          // One line: the banner shows it as a paragraph, so a line break becomes a space.
          onChange={(event) => setCustomerMessage(event.target.value.replace(/\r?\n/g, ' '))}
          error={fieldErrors.customerMessage}
          rows={3}
          maxLength={freezeCustomerMessageLimits.maxLength}
        />
        <DialogFormActions failure={error} busy={busy} confirmLabel={confirmLabel} onCancel={close} />
      </form>
    </Dialog>
  );
}
