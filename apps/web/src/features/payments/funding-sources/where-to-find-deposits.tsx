import { Link } from 'react-router';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { useMe } from '../../../lib/api/get-me.ts';
import { useBankIdentity } from '../../../lib/bank-identity.ts';

/**
 * Where the two amounts can be read. A real customer reads them on the other bank's statement; the
 * sandbox has no other bank, so it texts them, and its inbox shows the text (decision 021).
 */
export function WhereToFindDeposits() {
  const { mode } = useBankIdentity();
  const phone = useMe().data?.user.phoneNumber;
  if (mode === 'sandbox') {
    const inbox = phone ? `/dev/mail?to=${encodeURIComponent(phone)}` : '/dev/mail';
    return (
      <p className="where-to-find">
        This is a sandbox, with no other bank: the two amounts arrive by text message to your phone. Read them in the{' '}
        <Link to={inbox}>sandbox inbox at /dev/mail</Link>.
      </p>
    );
  }
  const { min, max } = businessConstants.achSettlementBusinessDays;
  return (
    <p className="where-to-find">
      Look for two deposits of less than $1 each on your statement at the other bank. They take {min} to {max} business days to arrive.
    </p>
  );
}
