import { useId, useMemo, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import type { Biller } from '@strongroom/contracts/billers.ts';
import { ActionDialog } from '../../components/forms/action-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { addPayeeFormSchema, type AddPayeeFormValues } from './add-payee-schema.ts';
import { useCreateBillPayee } from './api/create-bill-payee.ts';

const fieldNames: readonly Path<AddPayeeFormValues>[] = ['accountNumber', 'nickname'];

interface AddPayeeDialogProps {
  biller: Biller;
  onClose: () => void;
  onAdded: (payee: BillPayee) => void;
}

/**
 * 'Add a payee': the customer's account number at the chosen biller and a name for it. The number
 * is checked here against the biller's pattern; the server checks it again and its field message
 * (and any other refusal) shows on the form.
 */
export function AddPayeeDialog({ biller, onClose, onAdded }: AddPayeeDialogProps) {
  const formId = useId();
  const schema = useMemo(() => addPayeeFormSchema(biller), [biller]);
  const creating = useCreateBillPayee();
  // A refusal that belongs to no field of the form (a duplicate, an account not approved) shows above the buttons.
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<AddPayeeFormValues>({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues: { accountNumber: '', nickname: biller.name } });

  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    creating.mutate(
      { billerId: biller.id, accountNumber: values.accountNumber, nickname: values.nickname },
      {
        onSuccess: onAdded,
        onError: (error) => {
          if (!showServerFieldErrors(error, fieldNames, setError))
            setFormError(error instanceof ApiError ? (error.fields.billerId ?? error.message) : error.message);
        },
      },
    );
  });

  return (
    <ActionDialog
      open
      onCancel={onClose}
      busy={creating.isPending}
      size="md"
      title={`Add ${biller.name}`}
      description={<p>Enter your account number at {biller.name}, as it appears on your bill, and a name to know this payee by.</p>}
      action={
        <Button type="submit" form={formId} loading={creating.isPending}>
          Add payee
        </Button>
      }
    >
      <form id={formId} className="money-form" noValidate onSubmit={onSubmit} aria-label={`Add ${biller.name} as a payee`}>
        <TextField
          label={`Your account number at ${biller.name}`}
          hint={`Such as ${biller.accountNumberExample}`}
          autoComplete="off"
          spellCheck={false}
          required
          error={errors.accountNumber?.message}
          {...register('accountNumber')}
        />
        <TextField
          label="Nickname"
          hint="How this payee shows in your list, such as Home electricity."
          required
          error={errors.nickname?.message}
          {...register('nickname')}
        />
        {formError ? (
          <Notice tone="error" role="alert">
            {formError}
          </Notice>
        ) : null}
      </form>
    </ActionDialog>
  );
}
