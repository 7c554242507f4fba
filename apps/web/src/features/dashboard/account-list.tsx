import { Link } from 'react-router';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { Card } from '../../components/ui/card.tsx';
import { formatMoney } from '../../lib/money.ts';
import './account-list.css';

const typeNames: Record<Account['type'], string> = { checking: 'Checking', savings: 'Savings' };

/** Each account: type, name and number, balance and available balance, and its status in word and colour. */
export function AccountList({ accounts }: { accounts: readonly Account[] }) {
  return (
    <ul className="account-list">
      {accounts.map((account) => (
        <Card as="li" key={account.id} className="account">
          <div className="account__header">
            <div>
              <p className="account__type">{typeNames[account.type]}</p>
              <h3 className="account__name">{account.name}</h3>
            </div>
            <span className={`account__status account__status--${account.status}`}>
              <span className="account__status-dot" aria-hidden="true" />
              {account.status === 'active' ? 'Active' : 'Inactive'}
            </span>
          </div>
          <dl className="account__figures">
            <div>
              <dt>Account number</dt>
              <dd className="tabular">{account.number}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd className="account__money tabular">{formatMoney(account.balanceCents)}</dd>
            </div>
            <div>
              <dt>Available balance</dt>
              <dd className="account__money tabular">{formatMoney(account.availableCents)}</dd>
            </div>
          </dl>
          <Link className="account__statements" to={`/transaction-history?account=${account.id}#statements-title`} aria-label={`Statements of ${account.name} ${account.number}`}>
            Statements
          </Link>
        </Card>
      ))}
    </ul>
  );
}
