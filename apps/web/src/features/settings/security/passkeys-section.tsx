import { useEffect, useState } from 'react';
import { KeyRound, Pencil, Plus, Trash2 } from 'lucide-react';
import type { Passkey } from '@strongroom/contracts/passkeys.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog.tsx';
import { SettingsSection } from '../settings-section.tsx';
import { AddPasskeyDialog, RenamePasskeyDialog } from './passkey-dialogs.tsx';
import { browserSupportsPasskeys, usePasskeys, useRemovePasskey } from './api/passkeys.ts';
import './passkeys-section.css';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
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
    <SettingsSection icon={KeyRound} title="Passkeys" className="passkeys">
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
        <LoadingLine className="security-section__loading">Loading your passkeys…</LoadingLine>
      ) : passkeys.isError ? (
        <LoadFailed title="We could not load your passkeys" headingLevel={3} query={passkeys} />
      ) : items.length === 0 ? (
        <EmptyState icon={<KeyRound aria-hidden="true" size={28} />} title="No passkeys yet" headingLevel={3}>
          <p>Add one to sign in without typing your password.</p>
        </EmptyState>
      ) : (
        <ul className="passkeys__list">
          {items.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} onRename={() => setRenaming(passkey)} onRemove={() => setPendingRemoval(passkey)} />
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
      <ConfirmDialog
        open={pendingRemoval !== null}
        title="Remove this passkey?"
        description={
          <>
            <p>“{pendingRemoval?.name}” will no longer sign you in or confirm payments.</p>
            <p>The device may still show it in its list of passkeys: you can delete it there too.</p>
          </>
        }
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setPendingRemoval(null)}
        onConfirm={confirmRemoval}
        confirmVariant="danger"
        size="sm"
      />
      <ErrorDialog title={problem?.title ?? ''} message={problem?.message} onClose={() => setProblem(null)} />
    </SettingsSection>
  );
}

interface PasskeyItemProps {
  passkey: Passkey;
  onRename: () => void;
  onRemove: () => void;
}

/** One passkey: its name, when it was added and last used, whether it syncs, and what can be done with it. */
function PasskeyItem({ passkey, onRename, onRemove }: PasskeyItemProps) {
  return (
    <li className="passkeys__item">
      <KeyRound aria-hidden="true" size={22} className="passkeys__item-icon" />
      <div className="passkeys__details">
        <p className="passkeys__name">{passkey.name}</p>
        <p className="passkeys__meta">
          Added {formatDate(passkey.createdAt)} · {passkey.lastUsedAt ? `Last used ${formatDate(passkey.lastUsedAt)}` : 'Not used yet'}
          {passkey.backedUp ? ' · Synced to your other devices' : ''}
        </p>
      </div>
      <div className="passkeys__actions">
        <Button variant="secondary" size="sm" onClick={onRename} aria-label={`Rename passkey ${passkey.name}`}>
          <Pencil aria-hidden="true" size={16} />
          Rename
        </Button>
        <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove passkey ${passkey.name}`}>
          <Trash2 aria-hidden="true" size={16} />
          Remove
        </Button>
      </div>
    </li>
  );
}
