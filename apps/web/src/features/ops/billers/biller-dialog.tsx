import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { BillerRequest, StaffBiller } from '@strongroom/contracts/billers.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { BillerConfirm } from './biller-confirm.tsx';
import { BillerFields } from './biller-fields.tsx';
import { billerFormSchema, changesOf, formOf, requestOf, type BillerForm } from './biller-form-schema.ts';
import { useSaveBiller } from './billers-api.ts';

const formFields = new Set<string>(Object.keys(formOf(null)));

/**
 * "Add a biller" or "Edit": the form, checked as the server checks it, then what will change and a
 * confirmation; fields the server refuses come back to the form with its messages beside them.
 */
export function BillerDialog({ biller, onClose, onSaved }: { biller: StaffBiller | null; onClose: () => void; onSaved: (message: string) => void }) {
  const save = useSaveBiller();
  const [confirming, setConfirming] = useState<BillerRequest | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const { register, handleSubmit, watch, setError, setFocus, formState } = useForm<BillerForm>({
    resolver: zodResolver(billerFormSchema),
    mode: 'onTouched',
    defaultValues: formOf(biller),
  });
  const title = biller ? `Edit ${biller.name}` : 'Add a biller';

  const onSubmit = handleSubmit((values) => {
    save.reset();
    setRefused(null);
    setConfirming(requestOf(values));
  });

  function confirm() {
    if (!confirming) return;
    const request = confirming;
    save.mutate(
      { id: biller?.id ?? null, request },
      {
        onSuccess: ({ biller: saved }) => onSaved(biller ? `${saved.name}: changes saved.` : `${saved.name} added.`),
        onError: (failure) => {
          const fields = failure instanceof ApiError ? Object.entries(failure.fields).filter(([field]) => formFields.has(field)) : [];
          if (fields.length === 0) return;
          setConfirming(null);
          setRefused(failure.message);
          fields.forEach(([field, message], index) => setError(field as keyof BillerForm, { type: 'server', message }, { shouldFocus: index === 0 }));
        },
      },
    );
  }

  return (
    <Dialog open onClose={onClose} dismissible={!save.isPending} title={title} size="lg">
      <form noValidate onSubmit={onSubmit} className="biller-form" hidden={confirming !== null} aria-label={title}>
        {refused ? (
          <Notice tone="error" role="alert">
            {refused}
          </Notice>
        ) : null}
        <BillerFields register={register} errors={formState.errors} ach={watch('paymentMethod') === 'ach'} />
        <div className="biller-dialog__actions">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Review</Button>
        </div>
      </form>
      {confirming ? (
        <BillerConfirm
          adding={biller === null}
          changes={changesOf(biller, confirming)}
          reason={confirming.reason}
          busy={save.isPending}
          error={save.error?.message}
          onBack={() => {
            // The Back button goes with the confirmation: focus returns to the form's first field.
            flushSync(() => setConfirming(null));
            setFocus('category');
          }}
          onConfirm={confirm}
        />
      ) : null}
    </Dialog>
  );
}
