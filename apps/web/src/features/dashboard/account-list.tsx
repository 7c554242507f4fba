import { Link } from 'react-router';
import { CircleAlert } from 'lucide-react';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatDate } from '../../lib/dates.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { AccountProduct, InterestFigures } from './account-interest.tsx';
import { AccountActions } from '../../components/accounts/account-actions.tsx';
import './account-list.css';

const typeNames: Record<Account['type'], string> = { checking: 'Checking', savings: 'Savings' };

/** Below zero (a deposit returned after it had cleared and been spent) in the red of money out. */
function moneyClassName(cents: number): string {
  return cents < 0 ? 'account__money account__money--negative tabular' : 'account__money tabular';
}

const states = {
  active: { word: 'Active', tone: 'success' },
  inactive: { word: 'Inactive', tone: 'neutral' },
  closed: { word: 'Closed', tone: 'neutral' },
} as const satisfies Record<string, { word: string; tone: BadgeTone }>;

/** Open and usable, closed, or inactive until the customer's identity is approved: in words, and in colour. */
function AccountState({ account }: { account: Account }) {
  const state = account.status === 'closed' ? 'closed' : account.active ? 'active' : 'inactive';
  return (
    <Badge tone={states[state].tone} dot className={`account__status account__status--${state}`}>
      {states[state].word}
    </Badge>
  );
}

/**
 * Each account: type, name and number, its product with the rate it earns and that rate's APY,
 * balance and available balance, interest this month and this year, and its status in word and
 * colour; deposits on their way, which are not in the balance yet; and a balance below zero said in words.
 */
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
            <AccountState account={account} />
          </div>
          <AccountProduct account={account} />
          <dl className="account__figures">
            <div>
              <dt>Account number</dt>
              <dd className="tabular">{account.number}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd className={moneyClassName(account.balanceCents)}>{formatMoney(account.balanceCents)}</dd>
            </div>
            <div>
              <dt>Available balance</dt>
              <dd className={moneyClassName(account.availableCents)}>{formatMoney(account.availableCents)}</dd>
            </div>
            {account.pendingDepositsCents > 0 ? (
              <div>
                <dt>On its way</dt>
                <dd className="account__money tabular">{formatMoney(account.pendingDepositsCents)}</dd>
              </div>
            ) : null}
            <InterestFigures account={account} />
          </dl>
          {account.pendingDepositsCents > 0 ? (
            <p className="account__note">
              {account.pendingDepositsAvailableAt
                ? `Deposits from your other banks, available on ${formatDate(account.pendingDepositsAvailableAt)}. Not in your balance until then.`
                : 'Deposits from your other banks, not in your balance until they clear.'}
            </p>
          ) : null}
          {account.balanceCents < 0 || account.availableCents < 0 ? (
            <p className="account__note account__note--owed">
              <CircleAlert aria-hidden="true" size={16} />
              Below zero after a returned deposit: payments out are paused until you pay in the difference.
            </p>
          ) : null}
          <Link
            className="account__statements"
            to={`/transaction-history?account=${account.id}#statements-title`}
            aria-label={`Statements of ${account.name} ${account.number}`}
          >
            Statements
          </Link>
          <AccountActions account={account} accounts={accounts} />
        </Card>
      ))}
    </ul>
  );
}
