import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Copy, Smartphone } from 'lucide-react';
import type { TotpEnrolment } from '@strongroom/contracts/security.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { CodeInput } from '../../../components/ui/code-input.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import '../../../components/step-up/step-up-dialog.css';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog.tsx';
import { SettingsSection } from '../settings-section.tsx';
import { useConfirmTotp, useRemoveTotp, useStartTotpEnrolment, useTotpStatus } from './api/security.ts';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** 'JBSWY3DPEHPK3PXP' -> 'JBSW Y3DP EHPK 3PXP': easier to type into an app by hand. */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

function emptyDigits(): string[] {
  return Array.from({ length: 6 }, () => '');
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Settings > Security > Authenticator app (docs/security.md 6.6.1): set one up behind a step-up (a QR
 * code and the secret to type), confirm it with a code, and keep the ten recovery codes shown this
 * once; once on, payments ask for its code first and a text message is the fallback. Remove it
 * behind a step-up, after a confirmation.
 */
export function AuthenticatorSection() {
  const status = useTotpStatus();
  const start = useStartTotpEnrolment();
  const remove = useRemoveTotp();
  const toast = useToast();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const [problem, setProblem] = useState<{ title: string; message: string } | null>(null);

  async function onStart() {
    const outcome = await start.submit({});
    if (outcome.status === 'done') setEnrolment(outcome.result);
    else if (outcome.status === 'failed') {
      setProblem({ title: 'The app was not set up', message: outcome.error instanceof ApiError ? outcome.error.message : 'Please try again.' });
    }
  }

  async function onRemove() {
    setConfirmingRemoval(false);
    const outcome = await remove.submit();
    if (outcome.status === 'done') toast.show('The authenticator app is removed. Codes now come by text message.');
    else if (outcome.status === 'failed') {
      setProblem({ title: 'The app was not removed', message: outcome.error instanceof ApiError ? outcome.error.message : 'Please try again.' });
    }
  }

  let body;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(null);
          toast.show('Your authenticator app is on');
        }}
      />
    );
  } else if (enrolment) {
    body = (
      <EnrolmentSteps
        enrolment={enrolment}
        onConfirmed={(codes) => {
          setEnrolment(null);
          setRecoveryCodes(codes);
        }}
        onCancel={() => setEnrolment(null)}
      />
    );
  } else {
    body = (
      <AppStatus
        status={status}
        starting={start.isPending}
        onStart={() => void onStart()}
        removing={remove.isPending}
        onRemove={() => setConfirmingRemoval(true)}
      />
    );
  }

  return (
    <SettingsSection icon={Smartphone} title="Authenticator app">
      {body}
      <StepUpDialog {...start.dialog} />
      <StepUpDialog {...remove.dialog} />
      <ConfirmDialog
        open={confirmingRemoval}
        title="Remove the authenticator app?"
        description={<p>Payments will ask for a code by text message again, and your recovery codes stop working. We ask for a code first.</p>}
        confirmLabel="Remove"
        onCancel={() => setConfirmingRemoval(false)}
        onConfirm={() => void onRemove()}
        confirmVariant="danger"
        busy={false}
        size="sm"
      />
      <ErrorDialog title={problem?.title ?? ''} message={problem?.message ?? null} onClose={() => setProblem(null)} />
    </SettingsSection>
  );
}

interface AppStatusProps {
  status: ReturnType<typeof useTotpStatus>;
  starting: boolean;
  onStart: () => void;
  removing: boolean;
  onRemove: () => void;
}

/** Whether the app is on (with the recovery codes left, and its removal) or not (with the offer to set one up). */
function AppStatus({ status, starting, onStart, removing, onRemove }: AppStatusProps) {
  if (status.isPending) {
    return <LoadingLine className="security-section__loading">Loading…</LoadingLine>;
  }
  if (status.isError) return <LoadFailed title="We could not load your authenticator app" headingLevel={3} query={status} />;
  if (!status.data.enrolled) {
    return (
      <>
        <p className="security-section__lead">
          An app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password) makes a new 6-digit code every 30 seconds. It is safer than
          a text message, and works without signal. Once it is on, payments ask for its code first.
        </p>
        <div className="security-form__actions">
          <Button onClick={onStart} loading={starting}>
            Set up an authenticator app
          </Button>
        </div>
      </>
    );
  }
  const left = status.data.recoveryCodesLeft;
  return (
    <>
      <p className="security-status">
        <span className="security-status__badge">On</span>
        Set up on {status.data.enrolledAt ? dateFormat.format(new Date(status.data.enrolledAt)) : 'an earlier day'}. {left} of 10 recovery{' '}
        {left === 1 ? 'code' : 'codes'} left.
      </p>
      {left <= 2 ? (
        <Notice tone="info">
          <p>Few recovery codes are left. To get ten new ones, remove the app and set it up again.</p>
        </Notice>
      ) : null}
      <div className="security-form__actions">
        <Button variant="secondary" onClick={onRemove} loading={removing}>
          Remove the app
        </Button>
      </div>
    </>
  );
}

function EnrolmentSteps({ enrolment, onConfirmed, onCancel }: { enrolment: TotpEnrolment; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const confirm = useConfirmTotp();
  const [digits, setDigits] = useState(emptyDigits);
  const [codeError, setCodeError] = useState<string | undefined>();
  const codeRef = useRef<HTMLFieldSetElement>(null);

  function submitCode(code: string) {
    if (confirm.isPending) return;
    setCodeError(undefined);
    confirm.mutate(code, {
      onSuccess: ({ recoveryCodes }) => onConfirmed(recoveryCodes),
      onError: (error) => {
        setDigits(emptyDigits());
        setCodeError(error instanceof ApiError ? (error.fields.code ?? error.message) : error.message);
        codeRef.current?.querySelector('input')?.focus();
      },
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (digits.every((digit) => digit !== '')) submitCode(digits.join(''));
    else setCodeError(validationMessages.stepUpCodeInvalid);
  }

  return (
    <div className="totp-enrolment code-boxes-fit">
      <ol className="totp-enrolment__steps">
        <li>
          <p>Open your authenticator app and scan this code.</p>
          <img className="totp-enrolment__qr" src={enrolment.qrCode} alt="QR code to add this account to your authenticator app" width={180} height={180} />
        </li>
        <li>
          <p>Cannot scan it? Type this key into the app instead (time-based, 6 digits):</p>
          <p className="totp-enrolment__secret" aria-label="Setup key">
            <code>{groupSecret(enrolment.secret)}</code>
          </p>
        </li>
        <li>
          <p>Enter the 6-digit code the app shows now.</p>
          <form className="security-form" noValidate onSubmit={onSubmit} aria-label="Confirm the authenticator app">
            <CodeInput
              ref={codeRef}
              label="6-digit code from the app"
              digits={digits}
              onDigitsChange={(next) => {
                setDigits(next);
                if (codeError) setCodeError(undefined);
              }}
              onComplete={submitCode}
              error={codeError}
              disabled={confirm.isPending}
            />
            <div className="security-form__actions">
              <Button type="submit" loading={confirm.isPending}>
                Turn on
              </Button>
              <Button variant="ghost" onClick={onCancel} disabled={confirm.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        </li>
      </ol>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const toast = useToast();
  const [saved, setSaved] = useState(false);
  const listId = useId();
  const startRef = useRef<HTMLDivElement>(null);

  // The code boxes that had the focus are gone: what to do now is read first.
  useEffect(() => {
    startRef.current?.focus();
  }, []);

  async function onCopy() {
    if (await copyText(codes.join('\n'))) toast.show('Recovery codes copied');
    else toast.show('Your browser did not allow copying: select the codes and copy them yourself', 'error');
  }

  return (
    <div className="recovery-codes">
      <div ref={startRef} tabIndex={-1} className="recovery-codes__start">
        <Notice tone="success">
          <p>
            <strong>Your authenticator app is on.</strong> Save these ten recovery codes somewhere safe, such as a password manager. If you lose your phone,
            each one confirms one payment instead of the app’s code. We show them only this once.
          </p>
        </Notice>
      </div>
      <ul className="recovery-codes__list" id={listId} aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="security-form__actions">
        <Button variant="secondary" onClick={() => void onCopy()} aria-controls={listId}>
          <Copy aria-hidden="true" size={16} />
          Copy
        </Button>
      </div>
      <Checkbox label="I saved my recovery codes" checked={saved} onChange={(event) => setSaved(event.target.checked)} />
      <div className="security-form__actions">
        <Button onClick={onDone} disabled={!saved}>
          Done
        </Button>
      </div>
    </div>
  );
}
