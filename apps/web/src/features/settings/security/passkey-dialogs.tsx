import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { passkeyNameField, passkeyNameMaxLength, type Passkey } from '@strongroom/contracts/passkeys.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import { ActionDialog } from '../../../components/forms/action-dialog.tsx';
import { passkeyErrorMessage, useAddPasskey, useRenamePasskey } from './api/passkeys.ts';

/** The name field's check, with the contract's words. */
function nameProblem(name: string): string | undefined {
  const parsed = passkeyNameField.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/** A passkey's name as it is typed: its message goes once the customer types again. */
function usePasskeyName() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  return {
    name,
    error,
    start(value: string) {
      setName(value);
      setError(undefined);
    },
    change(value: string) {
      setName(value);
      if (error) setError(undefined);
    },
    /** The name to send, or null once its problem is shown under the field. */
    checked(): string | null {
      const problem = nameProblem(name);
      if (problem) {
        setError(problem);
        return null;
      }
      return name.trim();
    },
  };
}

type PasskeyName = ReturnType<typeof usePasskeyName>;

interface PasskeyNameDialogProps {
  open: boolean;
  onClose: () => void;
  busy: boolean;
  title: string;
  description?: ReactNode;
  hint?: string;
  submitLabel: string;
  field: PasskeyName;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}

/** A dialog that asks for a passkey's name: to add one, or to rename one. */
function PasskeyNameDialog({ open, onClose, busy, title, description, hint, submitLabel, field, onSubmit }: PasskeyNameDialogProps) {
  const formId = useId();
  return (
    <ActionDialog
      open={open}
      onCancel={onClose}
      busy={busy}
      title={title}
      description={description}
      action={
        <Button type="submit" form={formId} loading={busy}>
          {submitLabel}
        </Button>
      }
    >
      <form id={formId} noValidate onSubmit={onSubmit}>
        <TextField
          label="Passkey name"
          hint={hint}
          maxLength={passkeyNameMaxLength}
          value={field.name}
          onChange={(event) => field.change(event.target.value)}
          error={field.error}
          autoComplete="off"
          required
        />
      </form>
    </ActionDialog>
  );
}

export interface AddPasskeyDialogProps {
  open: boolean;
  onClose: () => void;
  onAdded: (passkey: Passkey) => void;
  onProblem: (message: string) => void;
}

/** The name first; then the step-up dialog and the device's own prompt take over. */
export function AddPasskeyDialog({ open, onClose, onAdded, onProblem }: AddPasskeyDialogProps) {
  const addPasskey = useAddPasskey();
  const field = usePasskeyName();

  useEffect(() => {
    // Only a newly opened dialog starts empty.
    if (open) field.start('');
  }, [open]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = field.checked();
    if (name === null) return;
    const outcome = await addPasskey.add(name);
    if (outcome.status === 'done') onAdded(outcome.passkey);
    else if (outcome.status === 'failed') {
      onClose();
      onProblem(outcome.message);
    }
  }

  return (
    <>
      <PasskeyNameDialog
        open={open && addPasskey.dialog.challenge === null}
        onClose={onClose}
        busy={addPasskey.isPending}
        title="Add a passkey"
        description={<p>Name it after the device that keeps it, so you can tell your passkeys apart.</p>}
        hint="For example “Work laptop” or “My phone”."
        submitLabel="Continue"
        field={field}
        onSubmit={(event) => void onSubmit(event)}
      />
      <StepUpDialog {...addPasskey.dialog} />
    </>
  );
}

export interface RenamePasskeyDialogProps {
  passkey: Passkey | null;
  onClose: () => void;
  onProblem: (message: string) => void;
}

export function RenamePasskeyDialog({ passkey, onClose, onProblem }: RenamePasskeyDialogProps) {
  const rename = useRenamePasskey();
  const toast = useToast();
  const field = usePasskeyName();

  useEffect(() => {
    // The passkey's name as it is now, each time the dialog opens for one.
    if (passkey) field.start(passkey.name);
  }, [passkey]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!passkey) return;
    const name = field.checked();
    if (name === null) return;
    rename.mutate(
      { id: passkey.id, name },
      {
        onSuccess: ({ passkey: renamed }) => {
          onClose();
          toast.show(`Passkey renamed to “${renamed.name}”`);
        },
        onError: (failure) => {
          onClose();
          onProblem(passkeyErrorMessage(failure));
        },
      },
    );
  }

  return (
    <PasskeyNameDialog
      open={passkey !== null}
      onClose={onClose}
      busy={rename.isPending}
      title="Rename passkey"
      submitLabel="Save"
      field={field}
      onSubmit={onSubmit}
    />
  );
}
