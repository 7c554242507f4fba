import { Link } from 'react-router';
import type { UseFormReturn } from 'react-hook-form';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { ChoiceGroup } from '../../components/payment/choice-group.tsx';
import { accountOptions } from '../../components/payment/account-options.ts';
import { RecipientFields } from '../../components/payment/recipient-fields.tsx';
import type { OtherBankChecked, OtherBankFormValues } from '../../components/payment/other-bank-schema.ts';
import type { ScheduleChecked, ScheduleFormValues } from './schedule-form-schema.ts';

export type ScheduleForm = UseFormReturn<ScheduleFormValues, unknown, ScheduleChecked>;
export type RecipientForm = UseFormReturn<OtherBankFormValues, unknown, OtherBankChecked>;

const kindChoices = [
  { value: 'bill', label: 'A bill' },
  { value: 'own', label: 'One of my accounts' },
  { value: 'person', label: 'A person' },
] as const;

/** "Bill Pay nickname (City Water, account ending 4821)". */
export function billPayeeLabel(payee: BillPayee): string {
  return `${payee.nickname} (${payee.billerName}, account ending ${payee.accountEnding})`;
}

export interface PayeeFieldsProps {
  form: ScheduleForm;
  recipientForm: RecipientForm;
  accounts: readonly Account[];
  billPayees: readonly BillPayee[];
  bankName: string;
}

/** Who is paid: a bill payee, one of the customer's own accounts, or a person, typed as on the transfer form. */
export function PayeeFields({ form, recipientForm, accounts, billPayees, bankName }: PayeeFieldsProps) {
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const kind = watch('kind');
  return (
    <>
      <ChoiceGroup legend="Pay to" choices={kindChoices} registration={register('kind')} error={errors.kind?.message} />
      {kind === 'bill' && billPayees.length === 0 ? (
        <Notice>
          <p>
            You have no bill payees yet. <Link to="/billpay">Add one in Bill Pay</Link>, then come back to schedule its payments.
          </p>
        </Notice>
      ) : null}
      {kind === 'bill' && billPayees.length > 0 ? (
        <SelectField
          label="Bill payee"
          options={billPayees.map((payee) => ({ value: payee.id, label: billPayeeLabel(payee) }))}
          placeholder="Choose a bill payee"
          required
          error={errors.billPayeeId?.message}
          {...register('billPayeeId')}
        />
      ) : null}
      {kind === 'own' ? (
        <SelectField
          label="To account"
          options={accountOptions(accounts)}
          placeholder="Choose an account"
          required
          error={errors.toAccountId?.message}
          {...register('toAccountId')}
        />
      ) : null}
      {kind === 'person' ? <RecipientFields form={recipientForm} bankName={bankName} /> : null}
    </>
  );
}
