import { Link } from 'react-router';
import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import { Notice } from '../../components/ui/notice.tsx';
import { buttonClassName } from '../../components/ui/button.tsx';

/** The account is open: its name and number, and the way back to the dashboard. */
export function OpeningDone({ account }: { account: ManagedAccount }) {
  return (
    <div className="open-account__form">
      <Notice tone="success" role="status">
        Your {account.name} is open. Its number is <span className="tabular">{account.number}</span>.
      </Notice>
      <p>It appears with your other accounts on the dashboard, with its balance and the interest it earns.</p>
      <Link className={buttonClassName()} to="/dashboard">
        Go to your accounts
      </Link>
    </div>
  );
}
