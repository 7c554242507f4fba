import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '../ui/button.tsx';
import { Notice } from '../ui/notice.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { answerStepUpWithPasskey, passkeyErrorMessage } from '../../lib/api/passkey-step-up.ts';

export interface UsePasskeyButtonProps {
  challengeId: string;
  /** The challenge is verified: repeat the request with `X-Step-Up`. */
  onVerified: (challengeId: string) => void;
  /** The challenge cannot be answered any more (expired, used, gone): ask for a new one. */
  onRenew?: () => void;
}

/**
 * "Use a passkey" in the step-up dialog: the device's prompt for one of the customer's passkeys,
 * whose answer completes this challenge (`POST /step-up/{id}/passkey`). A refusal is shown under
 * the button; the dialog's other ways (a code) stay open.
 */
export function UsePasskeyButton({ challengeId, onVerified, onRenew }: UsePasskeyButtonProps) {
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function answerWithPasskey() {
    setPending(true);
    setProblem(null);
    try {
      await answerStepUpWithPasskey(challengeId);
      onVerified(challengeId);
    } catch (error) {
      if (onRenew && error instanceof ApiError && (error.code === 'not_found' || error.code === 'conflict')) onRenew();
      else setProblem(passkeyErrorMessage(error));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="use-passkey">
      <Button block onClick={() => void answerWithPasskey()} loading={pending}>
        <KeyRound aria-hidden="true" size={18} />
        Use a passkey
      </Button>
      <div role="status">
        {problem ? (
          <Notice tone="error">
            <p>{problem}</p>
          </Notice>
        ) : null}
      </div>
    </div>
  );
}
