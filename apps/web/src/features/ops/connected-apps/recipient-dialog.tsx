import { useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { CreateDataRecipient, DataRecipient } from '@strongroom/contracts/connected-apps.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { RecipientFields } from './recipient-fields.tsx';
import { NarrowingConfirm, narrowingWarning } from './narrowing-confirm.tsx';
import { formFieldOf, formOf, recipientFormSchema, requestOf, type RecipientForm } from './recipient-form-schema.ts';
import { useSaveDataRecipient } from './recipients-api.ts';

/**
 * "Register an app" or "Edit": the form, checked as the server checks it; an edit that takes data
 * away from connected customers asks once more; fields the server refuses come back with its messages.
 */
export function RecipientDialog({ recipient, onClose, onSaved }: { recipient: DataRecipient | null; onClose: () => void; onSaved: (message: string) => void }) {
  const save = useSaveDataRecipient();
  const [refused, setRefused] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ request: CreateDataRecipient; warning: string } | null>(null);
  const { register, handleSubmit, setError, setFocus, formState } = useForm<RecipientForm>({
    resolver: zodResolver(recipientFormSchema),
    mode: 'onTouched',
    defaultValues: formOf(recipient),
  });
  const title = recipient ? `Edit ${recipient.name}` : 'Register an app';

  function send(request: CreateDataRecipient) {
    save.mutate(
      { id: recipient?.id ?? null, request },
      {
        onSuccess: ({ recipient: saved }) =>
          onSaved(recipient ? `${saved.name}: changes saved.` : `${saved.name} registered. Its client id is ${saved.clientId}.`),
        onError: (failure) => {
          setConfirming(null);
          const fields = !(failure instanceof ApiError)
            ? []
            : Object.entries(failure.fields).flatMap(([field, message]) => {
                const name = formFieldOf(field);
                return name ? [[name, message] as const] : [];
              });
          // A name another app has is said beside the name; anything else above the form.
          if (failure instanceof ApiError && failure.code === 'conflict') fields.push(['name', failure.message]);
          if (fields.length === 0) setRefused(failure.message);
          fields.forEach(([field, message], index) => setError(field, { type: 'server', message }, { shouldFocus: index === 0 }));
        },
      },
    );
  }

  const onSubmit = handleSubmit((values) => {
    save.reset();
    setRefused(null);
    const request = requestOf(values);
    const warning = recipient && narrowingWarning(recipient, request);
    if (warning) setConfirming({ request, warning });
    else send(request);
  });

  return (
    <Dialog open onClose={onClose} dismissible={!save.isPending} title={title} size="lg">
      <form noValidate onSubmit={onSubmit} className="connected-apps__form" hidden={confirming !== null} aria-label={title}>
        {refused ? (
          <Notice tone="error" role="alert">
            {refused}
          </Notice>
        ) : null}
        <RecipientFields register={register} errors={formState.errors} />
        <div className="connected-apps__dialog-actions">
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending && confirming === null}>
            {recipient ? 'Save the changes' : 'Register the app'}
          </Button>
        </div>
      </form>
      {confirming ? (
        <NarrowingConfirm
          warning={confirming.warning}
          busy={save.isPending}
          onBack={() => {
            // The Back button goes with the confirmation: focus returns to the allowed data.
            flushSync(() => setConfirming(null));
            setFocus('allowedScopes');
          }}
          onConfirm={() => send(confirming.request)}
        />
      ) : null}
    </Dialog>
  );
}
