import { Link } from 'react-router';
import { Notice } from '../../components/ui/notice.tsx';
import { useMe } from '../../lib/api/get-me.ts';
import { formatDate } from '../../lib/dates.ts';
import { usePublicSettings } from '../../lib/public-settings.ts';

/**
 * While the customer is frozen (issue 12), every signed-in page says so: what it means, the
 * message staff chose for the customer (never their internal reason: decision 053), and how to
 * reach the bank if the customer wants to, since the bank says it will be in touch. `/me` carries
 * the freeze.
 */
export function FrozenAccountBanner() {
  const me = useMe();
  const settings = usePublicSettings();
  const frozen = me.data?.frozen;
  if (!frozen) return null;
  const contact = settings.status === 'success' ? settings.settings : undefined;
  return (
    <div className="frozen-account-banner">
      <Notice tone="error">
        <p>
          <strong>Your account is frozen</strong> since {formatDate(frozen.since)}.
        </p>
        <p>{frozen.message}</p>
        <p>You can still sign in and see everything, but no money can move: transfers, deposits and withdrawals are refused until the freeze is lifted.</p>
        {contact ? (
          <p>
            Questions in the meantime? Write to us in <Link to="/messages">Messages</Link>, call{' '}
            <a href={`tel:${contact.phone.replace(/[^+\d]/g, '')}`}>{contact.phone}</a> or email{' '}
            <a href={`mailto:${contact.supportEmail}`}>{contact.supportEmail}</a>.
          </p>
        ) : (
          <p>
            Questions in the meantime? Write to us in <Link to="/messages">Messages</Link>.
          </p>
        )}
      </Notice>
    </div>
  );
}
