import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import type { BankToday } from '@strongroom/contracts/calendar.ts';
import type { CreateScheduledPaymentRequest, ScheduledPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { Button } from '../../components/ui/button.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { accountOptions } from '../../components/payment/account-options.ts';
import { amountInputProps } from '../../components/payment/amount-field.ts';
import { ConfirmPaymentDialog } from '../../components/payment/confirm-payment-dialog.tsx';
import { PaymentMessageField } from '../../components/payment/message-field.tsx';
import { StepUpDialog } from '../../components/step-up/step-up-dialog.tsx';
import type { SendMoneyRequest } from '../../components/step-up/use-step-up-request.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { otherBankFormSchema, type OtherBankChecked, type OtherBankFormValues } from '../../components/payment/other-bank-schema.ts';
import { PayeeFields } from './payee-fields.tsx';
import { dateLimitsOf, scheduleFormSchema, type ScheduleChecked, type ScheduleFormValues } from './schedule-form-schema.ts';
import { calendarRangeOf, SchedulePreview } from './schedule-preview.tsx';
import { useBusinessDays } from './api/scheduled-payments.ts';
import { reviewedScheduleOf } from './schedule-request.tsx';
import { useScheduleSubmission } from './use-schedule-submission.ts';
import { WhenFields } from './when-fields.tsx';

export interface ScheduleFormProps {
  accounts: readonly Account[];
  billPayees: readonly BillPayee[];
  today: BankToday;
  defaults: ScheduleFormValues;
  recipientDefaults: OtherBankFormValues;
  /** `POST /scheduled-payments`, or the `PUT` of the schedule being edited. */
  send: SendMoneyRequest<CreateScheduledPaymentRequest, ScheduledPayment>;
  /** "The payment was not scheduled" or "The schedule was not changed". */
  errorTitle: string;
  onDone: (schedule: ScheduledPayment) => void;
}

/** A payment to schedule: who, how much and when; Continue opens the review, Confirm sends it. */
export function ScheduleForm({ accounts, billPayees, today, defaults, recipientDefaults, send, errorTitle, onDone }: ScheduleFormProps) {
  const { name: bankName } = useBankIdentity();
  const limits = dateLimitsOf(today);
  const form = useForm<ScheduleFormValues, unknown, ScheduleChecked>({
    resolver: zodResolver(scheduleFormSchema(limits)),
    mode: 'onTouched',
    defaultValues: defaults,
  });
  const recipientForm = useForm<OtherBankFormValues, unknown, OtherBankChecked>({
    resolver: zodResolver(otherBankFormSchema),
    mode: 'onTouched',
    defaultValues: recipientDefaults,
  });
  const submission = useScheduleSubmission(send, onDone);
  const calendar = useBusinessDays(...calendarRangeOf(limits));
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const values = watch();
  const transferKind = values.kind === 'person' ? (recipientForm.watch('bank') === 'this' ? 'internal' : 'external') : values.kind;

  // The person's fields live in the transfer form's own schema: the shared fields are copied into it, both are checked at once.
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const person = form.getValues('kind') === 'person';
    if (person) {
      const { fromAccountId, amount, message } = form.getValues();
      recipientForm.reset({ ...recipientForm.getValues(), fromAccountId, amount, message }, { keepErrors: true, keepTouched: true, keepDefaultValues: true });
    }
    const recipientOk = person ? await recipientForm.trigger(undefined, { shouldFocus: true }) : true;
    await form.handleSubmit((checked) => {
      if (!recipientOk) return;
      const recipient = person ? otherBankFormSchema.safeParse(recipientForm.getValues()) : null;
      const context = { accounts, billPayees, bankName };
      const reviewed = reviewedScheduleOf(checked, recipient?.success ? recipient.data : null, context, calendar.data?.days);
      if (reviewed) submission.review(reviewed);
    })(event);
  }

  return (
    <>
      <form className="money-form" noValidate onSubmit={(event) => void onSubmit(event)} aria-label="Schedule a payment">
        <SelectField label="From account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
        <PayeeFields form={form} recipientForm={recipientForm} accounts={accounts} billPayees={billPayees} bankName={bankName} />
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <PaymentMessageField registration={register('message')} value={values.message} error={errors.message?.message} optional={values.kind !== 'person'} />
        <WhenFields form={form} limits={limits} today={today} />
        <SchedulePreview values={values} kind={transferKind} limits={limits} />
        <div className="money-form__actions">
          <Button type="submit" size="lg">
            Continue
          </Button>
        </div>
      </form>
      <ConfirmPaymentDialog
        open={submission.pending !== null}
        title="Confirm the scheduled payment"
        rows={submission.pending?.rows ?? []}
        confirming={submission.isPending}
        onModify={submission.modify}
        onConfirm={() => void submission.confirm((field, message) => form.setError(field, { type: 'server', message }, { shouldFocus: true }))}
      />
      <StepUpDialog {...submission.stepUpDialog} />
      <ErrorDialog title={errorTitle} message={submission.errorMessage} onClose={submission.closeError} />
    </>
  );
}
