import { useEffect, useId, useState, type FormEvent } from 'react';
import { KeyRound, Pencil, Plus, Trash2 } from 'lucide-react';
import { passkeyNameField, passkeyNameMaxLength, type Passkey } from '@strongroom/contracts/passkeys.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import { browserSupportsPasskeys, passkeyErrorMessage, useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from './api/passkeys.ts';
import './passkeys-section.css';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** The name field's check, with the contract's words. */
function nameProblem(name: string): string | undefined {
  const parsed = passkeyNameField.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/**
 * Settings > Security > Passkeys: sign in and confirm payments with the device's lock (fingerprint,
 * face, PIN) instead of a password or a code. Add one with a name (after a step-up), rename it,
 * remove it after a confirmation.
 */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const toast = useToast();
  const [supported, setSupported] = useState<boolean | null>(null);
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [pendingRemoval, setPendingRemoval] = useState<Passkey | null>(null);
  const [problem, setProblem] = useState<{ title: string; message: string } | null>(null);
  const titleId = useId();

  useEffect(() => {
    let live = true;
    browserSupportsPasskeys().then(
      (answer) => live && setSupported(answer),
      () => live && setSupported(false),
    );
    return () => {
      live = false;
    };
  }, []);

  function confirmRemoval() {
    if (!pendingRemoval) return;
    const passkey = pendingRemoval;
    remove.mutate(passkey.id, {
      onSuccess: () => {
        setPendingRemoval(null);
        toast.show(`Passkey “${passkey.name}” was removed`);
      },
      onError: (error) => {
        setPendingRemoval(null);
        setProblem({ title: 'The passkey was not removed', message: error.message });
      },
    });
  }

  const items = passkeys.data?.items ?? [];
  return (
    <Card as="section" aria-labelledby={titleId} className="security-section passkeys">
      <div className="security-section__header">
        <KeyRound aria-hidden="true" size={22} className="security-section__icon" />
        <h2 id={titleId} className="security-section__title">
          Passkeys
        </h2>
      </div>
      <p className="security-section__lead">
        Sign in and confirm payments with your device’s screen lock (fingerprint, face or PIN) instead of your password or a code. Only your device keeps the
        key; we keep nothing that could sign in for you.
      </p>
      {supported === false ? (
        <p className="security-section__note" role="note">
          This browser cannot use passkeys. You can still use your password and codes.
        </p>
      ) : null}
      {passkeys.isPending ? (
        <p className="security-section__loading" aria-busy="true">
          <Spinner size="sm" /> Loading your passkeys…
        </p>
      ) : passkeys.isError ? (
        <LoadFailed title="We could not load your passkeys" headingLevel={3} query={passkeys} />
      ) : items.length === 0 ? (
        <EmptyState icon={<KeyRound aria-hidden="true" size={28} />} title="No passkeys yet" headingLevel={3}>
          <p>Add one to sign in without typing your password.</p>
        </EmptyState>
      ) : (
        <ul className="passkeys__list">
          {items.map((passkey) => (
            <li key={passkey.id} className="passkeys__item">
              <KeyRound aria-hidden="true" size={22} className="passkeys__item-icon" />
              <div className="passkeys__details">
                <p className="passkeys__name">{passkey.name}</p>
                <p className="passkeys__meta">
                  Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : 'Not used yet'}
                  {passkey.backedUp ? ' · Synced to your other devices' : ''}
                </p>
              </div>
              <div className="passkeys__actions">
                <Button variant="secondary" size="sm" onClick={() => setRenaming(passkey)} aria-label={`Rename passkey ${passkey.name}`}>
                  <Pencil aria-hidden="true" size={16} />
                  Rename
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setPendingRemoval(passkey)} aria-label={`Remove passkey ${passkey.name}`}>
                  <Trash2 aria-hidden="true" size={16} />
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="security-form__actions">
        <Button onClick={() => setAdding(true)} disabled={supported === false}>
          <Plus aria-hidden="true" size={18} />
          Add a passkey
        </Button>
      </div>

      <AddPasskeyDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(passkey) => {
          setAdding(false);
          toast.show(`Passkey “${passkey.name}” was added`);
        }}
        onProblem={(message) => setProblem({ title: 'The passkey was not added', message })}
      />
      <RenamePasskeyDialog
        passkey={renaming}
        onClose={() => setRenaming(null)}
        onProblem={(message) => setProblem({ title: 'The passkey was not renamed', message })}
      />
      <Dialog
        open={pendingRemoval !== null}
        onClose={() => setPendingRemoval(null)}
        dismissible={!remove.isPending}
        size="sm"
        title="Remove this passkey?"
        description={
          <>
            <p>“{pendingRemoval?.name}” will no longer sign you in or confirm payments.</p>
            <p>The device may still show it in its list of passkeys: you can delete it there too.</p>
          </>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setPendingRemoval(null)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirmRemoval} loading={remove.isPending}>
              Remove
            </Button>
          </>
        }
      />
      <ErrorDialog title={problem?.title ?? ''} message={problem?.message} onClose={() => setProblem(null)} />
    </Card>
  );
}

interface AddPasskeyDialogProps {
  open: boolean;
  onClose: () => void;
  onAdded: (passkey: Passkey) => void;
  onProblem: (message: string) => void;
}

/** The name first; then the step-up dialog and the device's own prompt take over. */
function AddPasskeyDialog({ open, onClose, onAdded, onProblem }: AddPasskeyDialogProps) {
  const addPasskey = useAddPasskey();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const formId = useId();

  useEffect(() => {
    if (open) {
      setName('');
      setError(undefined);
    }
  }, [open]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const nameError = nameProblem(name);
    if (nameError) {
      setError(nameError);
      return;
    }
    const outcome = await addPasskey.add(name.trim());
    if (outcome.status === 'done') onAdded(outcome.passkey);
    else if (outcome.status === 'failed') {
      onClose();
      onProblem(outcome.message);
    }
  }

  return (
    <>
      <Dialog
        open={open && addPasskey.dialog.challenge === null}
        onClose={onClose}
        dismissible={!addPasskey.isPending}
        size="sm"
        title="Add a passkey"
        description={<p>Name it after the device that keeps it, so you can tell your passkeys apart.</p>}
        footer={
          <>
            <Button variant="secondary" onClick={onClose} disabled={addPasskey.isPending}>
              Cancel
            </Button>
            <Button type="submit" form={formId} loading={addPasskey.isPending}>
              Continue
            </Button>
          </>
        }
      >
        <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)}>
          <TextField
            label="Passkey name"
            hint="For example “Work laptop” or “My phone”."
            maxLength={passkeyNameMaxLength}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              if (error) setError(undefined);
            }}
            error={error}
            autoComplete="off"
            required
          />
        </form>
      </Dialog>
      <StepUpDialog {...addPasskey.dialog} />
    </>
  );
}

interface RenamePasskeyDialogProps {
  passkey: Passkey | null;
  onClose: () => void;
  onProblem: (message: string) => void;
}

function RenamePasskeyDialog({ passkey, onClose, onProblem }: RenamePasskeyDialogProps) {
  const rename = useRenamePasskey();
  const toast = useToast();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const formId = useId();

  useEffect(() => {
    if (passkey) {
      setName(passkey.name);
      setError(undefined);
    }
  }, [passkey]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!passkey) return;
    const nameError = nameProblem(name);
    if (nameError) {
      setError(nameError);
      return;
    }
    rename.mutate(
      { id: passkey.id, name: name.trim() },
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
    <Dialog
      open={passkey !== null}
      onClose={onClose}
      dismissible={!rename.isPending}
      size="sm"
      title="Rename passkey"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={rename.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={rename.isPending}>
            Save
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={onSubmit}>
        <TextField
          label="Passkey name"
          maxLength={passkeyNameMaxLength}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(undefined);
          }}
          error={error}
          autoComplete="off"
          required
        />
      </form>
    </Dialog>
  );
}
