import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSecondsLeft } from '../../../lib/use-countdown.ts';
import './resend-button.css';

/** The server allows one resend a minute; a refusal without a Retry-After still waits this long. */
const resendIntervalSeconds = 60;

export interface ResendButtonProps {
  /** 'Resend email', 'Resend code'. */
  label: string;
  /** What is resent, for the wait note: 'link', 'code'. */
  noun: string;
  /** The endpoint's request; it answers with the message to show. */
  send: () => Promise<{ message: string }>;
  errorTitle: string;
}

/**
 * A resend that really resends (docs/product.md D12): the server's message after it, and when the
 * server says it is too soon (429), its message and how long to wait, with the button off until then.
 */
export function ResendButton({ label, noun, send, errorTitle }: ResendButtonProps) {
  const resend = useMutation({ mutationFn: send });
  const [retryAtMs, setRetryAtMs] = useState<number | null>(null);
  const waitSeconds = useSecondsLeft(retryAtMs);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const waitId = `resend-wait-${noun}`;

  function onResend() {
    setNotice(null);
    resend.mutate(undefined, {
      onSuccess: (answer) => {
        setNotice({ tone: 'success', text: answer.message });
        setRetryAtMs(Date.now() + resendIntervalSeconds * 1_000);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'rate_limited') {
          setNotice({ tone: 'error', text: error.message });
          setRetryAtMs(Date.now() + (error.retryAfterSeconds ?? resendIntervalSeconds) * 1_000);
        } else {
          setDialogError(error.message);
        }
      },
    });
  }

  const waiting = waitSeconds > 0;
  return (
    <div className="resend">
      <Button variant="secondary" onClick={onResend} loading={resend.isPending} disabled={waiting} aria-describedby={waiting ? waitId : undefined}>
        <Send aria-hidden="true" size={16} />
        {label}
      </Button>
      {waiting ? (
        <p className="resend__wait" id={waitId}>
          You can ask for another {noun} in {waitSeconds} s.
        </p>
      ) : null}
      {/* The live region is there before its message, which is what makes screen readers read it. */}
      <div role="status">
        {notice ? (
          <Notice tone={notice.tone}>
            <p>{notice.text}</p>
          </Notice>
        ) : null}
      </div>
      <ErrorDialog title={errorTitle} message={dialogError} onClose={() => setDialogError(null)} />
    </div>
  );
}
