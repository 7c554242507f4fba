import { KeyRound, MessageSquare, Send, ShieldCheck, Smartphone } from 'lucide-react';
import { stepUpCodeLength, stepUpCodeValidMinutes, stepUpMaxAttempts } from '@strongroom/contracts/step-up.ts';
import { Button } from '../ui/button.tsx';
import { CodeInput } from '../ui/code-input.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { Notice } from '../ui/notice.tsx';
import { TextField } from '../ui/text-field.tsx';
import { UsePasskeyButton } from './use-passkey-button.tsx';
import { useStepUpAnswer, type StepUpAnswer } from './use-step-up-answer.ts';
import './step-up-dialog.css';

export interface StepUpChallenge {
  challengeId: string;
  /** The server's words, which say where the code went. */
  message: string;
  /** Why this is a new challenge, when it replaces one that could not be used. */
  notice: string | undefined;
  /** What the code confirms: 'this payment', 'linking this account'. */
  subject: string;
  /**
   * How the customer may answer, best first (the 403's `methods`): with 'totp' the dialog asks for
   * the authenticator app's code and sends a text only when asked ("Send me a text instead"), as
   * with 'passkey'. Only 'sms' (or none named) means the code was texted already.
   */
  methods: readonly string[];
}

export interface StepUpDialogProps {
  challenge: StepUpChallenge | null;
  onVerified: (challengeId: string) => void;
  /** The challenge cannot be verified any more (expired, used, too many tries): ask for a new one. */
  onRenew: () => void;
  onCancel: () => void;
}

/**
 * The code dialog of a step-up (docs/product.md D10): the authenticator app's code first when the customer
 * has one (or a recovery code), the SMS code otherwise or on request. Its state lives as long as its challenge.
 */
export function StepUpDialog({ challenge, onVerified, onRenew, onCancel }: StepUpDialogProps) {
  return (
    <Dialog open={challenge !== null} onClose={onCancel} title="Confirm it’s you" size="sm">
      {challenge ? <StepUpForm key={challenge.challengeId} challenge={challenge} onVerified={onVerified} onRenew={onRenew} onCancel={onCancel} /> : null}
    </Dialog>
  );
}

interface StepUpFormProps extends Omit<StepUpDialogProps, 'challenge'> {
  challenge: StepUpChallenge;
}

/** What the dialog asks for, in the words of the way the customer answers. */
function leadOf(answer: StepUpAnswer, challenge: StepUpChallenge): string {
  if (answer.mode === 'app') return `Enter the ${stepUpCodeLength}-digit code your authenticator app shows.`;
  if (answer.mode === 'recovery') return 'Enter one of the recovery codes you saved when you set up your authenticator app. Each works once.';
  return answer.hasApp ? `Enter the ${stepUpCodeLength}-digit code we sent you by text message.` : challenge.message;
}

function StepUpForm({ challenge, onVerified, onRenew, onCancel }: StepUpFormProps) {
  const { challengeId } = challenge;
  const answer = useStepUpAnswer({ challengeId, methods: challenge.methods, onVerified, onRenew });
  return (
    <div className="step-up code-boxes-fit">
      <div className="step-up__lead">
        <ShieldCheck aria-hidden="true" size={24} className="step-up__icon" />
        <div>
          <p>{leadOf(answer, challenge)}</p>
          <p className="step-up__validity">
            {answer.mode === 'sms' && answer.smsSent
              ? `The code works for ${stepUpCodeValidMinutes} minutes and only for ${challenge.subject}.`
              : `It confirms ${challenge.subject} and nothing else.`}
          </p>
        </div>
      </div>
      {challenge.notice ? (
        <Notice tone="info" role="status">
          <p>{challenge.notice}</p>
        </Notice>
      ) : null}
      {challenge.methods.includes('passkey') ? <UsePasskeyButton challengeId={challengeId} onVerified={onVerified} onRenew={onRenew} /> : null}
      {answer.mode === 'sms' && !answer.smsSent ? null : <CodeForm answer={answer} />}
      <OtherWays answer={answer} waitId={`${challengeId}-resend-wait`} />
      <Button variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </div>
  );
}

/** The code itself: six boxes for the app's or the texted code, one field for a recovery code. */
function CodeForm({ answer }: { answer: StepUpAnswer }) {
  return (
    <form className="step-up__form" noValidate onSubmit={answer.onSubmit}>
      {answer.mode === 'recovery' ? (
        <TextField
          ref={answer.recoveryRef}
          label="Recovery code"
          value={answer.recoveryCode}
          onChange={(event) => answer.changeRecoveryCode(event.target.value)}
          error={answer.codeError}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          disabled={answer.verifying}
        />
      ) : (
        <CodeInput
          ref={answer.codeRef}
          label={answer.mode === 'app' ? `${stepUpCodeLength}-digit code from your authenticator app` : `${stepUpCodeLength}-digit code`}
          digits={answer.digits}
          onDigitsChange={answer.changeDigits}
          onComplete={answer.submitCode}
          error={answer.codeError}
          hint={`${stepUpMaxAttempts} tries for each code.`}
          disabled={answer.verifying}
        />
      )}
      <Button type="submit" block loading={answer.verifying}>
        Verify
      </Button>
    </form>
  );
}

/** The other ways to answer, and a new text when the last one did not come. */
function OtherWays({ answer, waitId }: { answer: StepUpAnswer; waitId: string }) {
  const { mode, smsSent, hasApp, switchTo } = answer;
  const waiting = answer.waitSeconds > 0;
  return (
    <div className="step-up__resend">
      {mode === 'sms' && smsSent ? (
        <Button variant="secondary" onClick={answer.onSendText} loading={answer.sending} disabled={waiting} aria-describedby={waiting ? waitId : undefined}>
          <Send aria-hidden="true" size={16} />
          Resend code
        </Button>
      ) : null}
      {!smsSent ? (
        <Button variant="secondary" onClick={answer.onSendText} loading={answer.sending}>
          <MessageSquare aria-hidden="true" size={16} />
          Send me a text instead
        </Button>
      ) : null}
      {mode !== 'sms' && smsSent ? (
        <Button variant="secondary" onClick={() => switchTo('sms')}>
          <MessageSquare aria-hidden="true" size={16} />
          Use the code we texted you
        </Button>
      ) : null}
      {hasApp && mode !== 'app' ? (
        <Button variant="ghost" onClick={() => switchTo('app')}>
          <Smartphone aria-hidden="true" size={16} />
          Use my authenticator app
        </Button>
      ) : null}
      {hasApp && mode !== 'recovery' ? (
        <Button variant="ghost" onClick={() => switchTo('recovery')}>
          <KeyRound aria-hidden="true" size={16} />
          Use a recovery code
        </Button>
      ) : null}
      {waiting && mode === 'sms' ? (
        <p className="step-up__wait" id={waitId}>
          You can ask for another code in {answer.waitSeconds} s.
        </p>
      ) : null}
      <div role="status">
        {answer.resendNotice ? (
          <Notice tone={answer.resendNotice.tone}>
            <p>{answer.resendNotice.text}</p>
          </Notice>
        ) : null}
      </div>
    </div>
  );
}
