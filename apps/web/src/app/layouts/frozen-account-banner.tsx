import { Notice } from '../../components/ui/notice.tsx';
import { useMe } from '../../lib/api/get-me.ts';
import { formatDate } from '../../lib/dates.ts';
import { usePublicSettings } from '../../lib/public-settings.ts';

/**
 * While staff have frozen the customer (issue 12), every signed-in page says so: what it means,
 * the reason staff gave, and how to reach the bank. `/me` carries the freeze.
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
          <strong>Your account is frozen</strong> since {formatDate(frozen.since)}. You can still sign in and see everything, but no money can move: transfers,
          deposits and withdrawals are refused until we lift the freeze.
        </p>
        <p>Reason: {frozen.reason}</p>
        {contact ? (
          <p>
            Please contact us: call <a href={`tel:${contact.phone.replace(/[^+\d]/g, '')}`}>{contact.phone}</a> or write to{' '}
            <a href={`mailto:${contact.supportEmail}`}>{contact.supportEmail}</a>.
          </p>
        ) : (
          <p>Please contact us through the contact page.</p>
        )}
      </Notice>
    </div>
  );
}
