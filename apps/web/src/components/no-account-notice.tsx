import { Link } from 'react-router';
import { noAccountMessage } from '@strongroom/contracts/messages.ts';
import { useMe } from '../lib/api/get-me.ts';
import { Notice } from './ui/notice.tsx';

/**
 * What a money screen shows in place of its form when the customer has no open account. Why they have
 * none is in the session the app already holds: waiting for the identity check (the usual case, and
 * nothing is wrong), a document to send or send again, or accounts they closed. Each case says what is
 * true and what happens next; none ends at "contact customer care" (decision 057).
 */
export function NoAccountNotice() {
  const me = useMe();
  const identityStatus = me.data?.user.identityStatus;
  // Before the session is known the waiting words are the likely ones, and never wrong for long: the bank layout has it already.
  const message = noAccountMessage(identityStatus ?? 'submitted');
  const sendDocument = identityStatus === 'not_submitted' || identityStatus === 'rejected';
  return (
    <Notice tone={identityStatus === 'rejected' ? 'error' : 'info'} role="status">
      <p>{message}</p>
      {sendDocument ? (
        <p>
          <Link to="/registeration">Send your identity document</Link>
        </p>
      ) : identityStatus === 'approved' ? (
        <p>
          <Link to="/transaction-history">See your history</Link>
        </p>
      ) : null}
    </Notice>
  );
}
