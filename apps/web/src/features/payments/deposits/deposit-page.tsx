import { useForm, type Path } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { resultMessages, validationMessages } from '@strongroom/contracts/messages.ts';
import { createDepositRequestSchema, type Payment } from '@strongroom/contracts/payments.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { accountOptions, accountTypeName } from '../../../components/payment/account-options.ts';
import { amountInputProps, amountTextField } from '../../../components/payment/amount-field.ts';
import { PaymentDialogs } from '../../../components/payment/payment-dialogs.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { paymentFieldNames, showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { SourceAccounts } from '../../../components/payment/source-accounts.tsx';
import { usePaymentSubmission } from '../../../components/payment/use-payment-submission.ts';
import { fundingSourceLabel } from '../funding-sources/funding-source-words.ts';
import { VerifiedSources } from '../funding-sources/verified-sources.tsx';
import { createDeposit } from './api/create-deposit.ts';
import { OtherBanksLink } from '../funding-sources/other-banks-link.tsx';
import '../../../components/payment/payment.css';

const depositFormSchema = createDepositRequestSchema
  .omit({ amountCents: true })
  // The contract lets the body leave it out (and refuses it then); the form always asks for it.
  .extend({ amount: amountTextField, fundingSourceId: z.uuid({ error: validationMessages.required }) });

type DepositFormValues = z.input<typeof depositFormSchema>;

const fieldNames: readonly Path<DepositFormValues>[] = ['fundingSourceId', 'accountId', 'amount', 'reason'];

/** Until it has cleared a deposit is received, not successful; the title follows the popup's live status. */
export const depositReceivedTitle = 'Deposit received';

export function depositResultTitle(payment: Payment): string {
  switch (payment.status) {
    case 'completed':
      return resultMessages.depositAccepted;
    case 'returned':
      return 'Deposit returned';
    case 'rejected':
      return 'Deposit refused';
    default:
      return payment.expectedSettlementAt ? `${depositReceivedTitle}: it clears by ${formatDate(payment.expectedSettlementAt)}` : depositReceivedTitle;
  }
}

/**
 * /deposit (seed: the first account preselected, its type and number shown, amount and reason
 * required), from a verified account at another bank (decision 021).
 */
export default function DepositPage() {
  return (
    <div className="money-page">
      <PageMeta title="Deposit" description="Pay money into your account." noIndex />
      <header className="money-page__header">
        <h1>Deposit</h1>
        <p>Pay money into one of your accounts from an account you hold at another bank.</p>
        <OtherBanksLink />
      </header>
      <SourceAccounts>{(accounts) => <VerifiedSources>{(sources) => <DepositForm accounts={accounts} sources={sources} />}</VerifiedSources>}</SourceAccounts>
    </div>
  );
}

/** The account a deposit comes from: the one asked for in the address (?source=, from 'Your other banks'), or the only one. */
function preselectedSource(sources: readonly FundingSource[], asked: string | null): string {
  if (asked && sources.some((source) => source.id === asked)) return asked;
  return sources.length === 1 ? (sources[0]?.id ?? '') : '';
}

function DepositForm({ accounts, sources }: { accounts: readonly Account[]; sources: readonly FundingSource[] }) {
  const [searchParams] = useSearchParams();
  const submission = usePaymentSubmission(createDeposit);
  const defaults: DepositFormValues = {
    fundingSourceId: preselectedSource(sources, searchParams.get('source')),
    accountId: accounts[0]?.id ?? '',
    amount: '',
    reason: '',
  };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm({ resolver: zodResolver(depositFormSchema), mode: 'onTouched', defaultValues: defaults });
  const accountId = watch('accountId');
  const account = accounts.find((candidate) => candidate.id === accountId);

  /** Field messages, and the day's limit, which says what is left today, under the amount. */
  function placeFieldErrors(error: unknown): boolean {
    if (showServerFieldErrors(error, fieldNames, setError, paymentFieldNames)) return true;
    if (!isApiError(error) || error.code !== 'deposit_limit_exceeded') return false;
    setError('amount', { type: 'server', message: error.fields.amountCents ?? error.message }, { shouldFocus: true });
    return true;
  }

  const onSubmit = handleSubmit(async (values) => {
    const result = await submission.submit(
      { accountId: values.accountId, fundingSourceId: values.fundingSourceId, amountCents: values.amount, reason: values.reason },
      { placeFieldErrors },
    );
    // The next deposit most likely goes from and to the same accounts: keep them chosen, clear the rest.
    if (result === 'done') reset({ ...defaults, fundingSourceId: values.fundingSourceId, accountId: values.accountId });
  });

  return (
    <>
      <form className="money-form" noValidate onSubmit={onSubmit} aria-label="Deposit">
        <SelectField
          label="From"
          hint="A verified account you hold at another bank"
          options={sources.map((source) => ({ value: source.id, label: fundingSourceLabel(source) }))}
          placeholder={sources.length > 1 ? 'Choose an account at another bank' : undefined}
          required
          error={errors.fundingSourceId?.message}
          {...register('fundingSourceId')}
        />
        {accounts.length > 1 ? (
          <SelectField label="Account" options={accountOptions(accounts)} required error={errors.accountId?.message} {...register('accountId')} />
        ) : null}
        <div className="money-form__pair">
          <TextField label="Account type" readOnly value={account ? accountTypeName(account.type) : ''} />
          <TextField label="Account number" readOnly value={account?.number ?? ''} />
        </div>
        <TextField {...amountInputProps} error={errors.amount?.message} {...register('amount')} />
        <TextField label="Reason" required maxLength={140} error={errors.reason?.message} {...register('reason')} />
        <div className="money-form__actions">
          <Button type="submit" size="lg" loading={submission.isPending}>
            Deposit
          </Button>
        </div>
      </form>
      <PaymentDialogs submission={submission} successTitle={depositResultTitle} errorTitle="The deposit was not made" follow />
    </>
  );
}
