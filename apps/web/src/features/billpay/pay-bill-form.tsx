import { Link } from 'react-router';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { type z } from 'zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { billTransferRequestSchema, paymentMessageMaxLength } from '@strongroom/contracts/payments.ts';
import { accountLabel, accountOptions } from '../../components/payment/account-options.ts';
import { amountInputProps, amountTextField } from '../../components/payment/amount-field.ts';
import { moreThanAvailableMessage } from '../../components/payment/available-balance.ts';
import { MoneyReviewForm, usePaymentReview, type ReviewedPayment } from '../../components/payment/payment-review.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { paymentFieldNames, showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { payBill, type PayBillRequest } from './api/pay-bill.ts';
import { payeeDescription } from './bill-payee-list.tsx';
import { billPaymentResultTitle } from './bill-payment-result.ts';

const payBillFormSchema = billTransferRequestSchema.omit({ kind: true, amountCents: true, billPayeeId: true }).extend({ amount: amountTextField });
type PayBillFormValues = z.input<typeof payBillFormSchema>;

const fieldNames: readonly Path<PayBillFormValues>[] = ['fromAccountId', 'amount', 'message'];

function defaultsFor(accounts: readonly Account[]): PayBillFormValues {
  return { fromAccountId: accounts[0]?.id ?? '', amount: '', message: '' };
}

/** Where the scheduled-payments screen starts with this payee chosen (issue 33 item 3). */
export function schedulePaymentHref(payee: BillPayee): string {
  return `/payments/scheduled/new?${new URLSearchParams({ kind: 'bill', billPayeeId: payee.id }).toString()}`;
}

/**
 * Pay a bill now: from one of the customer's open accounts, an amount and an optional memo; the
 * review, then `POST /transfers` `{ kind: 'bill' }` with the shared step-up flow (the first payment
 * to a new payee asks for a code), then the result with the day it arrives.
 */
export function PayBillForm({ payee, accounts }: { payee: BillPayee; accounts: readonly Account[] }) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(payBillFormSchema), mode: 'onTouched', defaultValues: defaultsFor(accounts) });
  const review = usePaymentReview<PayBillRequest, ReviewedPayment<PayBillRequest>>(payBill, {
    placeFieldErrors: (error) => showServerFieldErrors(error, fieldNames, setError, paymentFieldNames),
    onDone: () => reset(defaultsFor(accounts)),
  });

  const onSubmit = handleSubmit((values) => {
    const insufficient = moreThanAvailableMessage(accounts, values.fromAccountId, values.amount);
    if (insufficient) {
      setError('amount', { type: 'balance', message: insufficient }, { shouldFocus: true });
      return;
    }
    const from = accounts.find((account) => account.id === values.fromAccountId);
    review.review({
      body: { kind: 'bill', fromAccountId: values.fromAccountId, billPayeeId: payee.id, amountCents: values.amount, message: values.message },
      rows: [
        { label: 'Pay', value: payee.nickname },
        { label: 'Biller', value: payeeDescription(payee) },
        { label: 'From', value: from ? accountLabel(from) : values.fromAccountId },
        { label: 'Amount', value: <span className="tabular">{formatMoney(values.amount)}</span> },
        ...(values.message === '' ? [] : [{ label: 'Memo', value: values.message }]),
      ],
    });
  });

  const memo = watch('message') ?? '';
  return (
    <>
      <MoneyReviewForm
        label={`Pay ${payee.nickname}`}
        onSubmit={onSubmit}
        review={review}
        payment={review.pending}
        title="Confirm the bill payment"
        successTitle={billPaymentResultTitle}
        errorTitle="The bill payment was not sent"
        reviewNotice={
          <Notice>
            <p>A bill payment arrives by the next business day. One made after the day’s cut-off, or on a weekend or holiday, leaves the next business day.</p>
          </Notice>
        }
      >
        <SelectField label="From account" options={accountOptions(accounts)} required error={errors.fromAccountId?.message} {...register('fromAccountId')} />
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <TextField
          label="Memo"
          optional
          maxLength={paymentMessageMaxLength}
          hint={`Such as the reference on your bill; ${payee.billerName} may see it. ${memo.length} of ${paymentMessageMaxLength} characters.`}
          error={errors.message?.message}
          {...register('message')}
        />
      </MoneyReviewForm>
      <p className="bill-category__schedule">
        <Link to={schedulePaymentHref(payee)}>Schedule or repeat this payment</Link>
      </p>
    </>
  );
}
