import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Queryable } from '../../db/database.ts';
import { balanceOf, lookupAccounts } from '../../ledger/accounts.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { assertNotFrozen } from '../../platform/account-freeze.ts';
import { recordAudit } from '../../platform/audit.ts';
import { derivedUuid } from '../../platform/derived-id.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf } from '../../platform/request-actor.ts';
import { bankDate } from '../../platform/bank-date.ts';
import { accrueAccountUntil } from '../end-of-day/service.ts';
import { moveMoney } from '../payments/service.ts';
import { dependentsOf, lockCustomer, markAccountClosed, unpaidInterestCents, type AccountDependents, type ManagedAccountRow } from './manage-repository.ts';
import {
  openAccountOf,
  presentAccountById,
  publishAccountsChanged,
  reasonDetails,
  type AccountManagementDependencies,
  type AccountRequester,
} from './managed-account.ts';
import { owedCents } from '../accounts/service.ts';

/** Who a closing's interest line names on the other side. */
const interestCounterpartyName = 'Strongroom interest';

/** The interest paid into an account as it closes: one id per account, so a rerun finds it paid. */
export function closingInterestIdOf(accountId: string): string {
  return derivedUuid('interest', accountId, 'close');
}

/** What depends on the account, in the words of the refusal; empty when nothing does. */
export function dependentsWords(dependents: AccountDependents, type: ManagedAccountRow['type']): string[] {
  const words: string[] = [];
  const some = (count: number, one: string, many: string) => {
    if (count > 0) words.push(count === 1 ? one : `${count} ${many}`);
  };
  some(dependents.pending_deposits, 'a deposit into it is still pending', 'deposits into it are still pending');
  some(dependents.pending_payments, 'a payment from or to it is still pending', 'payments from or to it are still pending');
  some(dependents.held_payments, 'a payment from or to it is held for review', 'payments from or to it are held for review');
  some(dependents.cards, 'a card draws on it (close the card first)', 'cards draw on it (close them first)');
  some(dependents.loans, 'a loan pays into or out of it', 'loans pay into or out of it');
  some(
    dependents.scheduled_payments,
    'a scheduled payment is set up from or to it (cancel it first)',
    'scheduled payments are set up from or to it (cancel them first)',
  );
  some(dependents.open_disputes, 'a problem you reported with a payment of it is still open', 'problems you reported with its payments are still open');
  if (type === 'checking' && dependents.other_open_checking === 0) words.push('it is your last checking account');
  return words;
}

function inUse(reasons: readonly string[]): AppError {
  return new AppError('account_in_use', `This account cannot be closed yet: ${reasons.join('; ')}.`);
}

/**
 * `POST /accounts/{id}/close` (and staff's `POST /staff/accounts/{id}/close`), docs/product.md
 * section 7. In one transaction, under the customer's row lock and the account's: what depends on
 * the account is checked (409 account_in_use, the message says what); the interest it accrued and
 * has not been paid is paid into it (every day's exact accrual added up, floored to a cent, less
 * what was paid already); then its whole balance moves to another open account of the customer's
 * as an own transfer; then it is closed. Any failure leaves it as it was.
 */
export async function closeAccount(
  dependencies: AccountManagementDependencies,
  requester: AccountRequester,
  accountId: string,
  toAccountId: string,
): Promise<ManagedAccount> {
  const { db } = dependencies;
  const { customerId } = requester;
  if (requester.reason === undefined) await assertNotFrozen(db, customerId);
  await openAccountOf(db, customerId, accountId);
  await openAccountOf(db, customerId, toAccountId);
  if (toAccountId.toLowerCase() === accountId.toLowerCase()) {
    const message = 'choose another account for the balance';
    throw new AppError('validation_failed', message, { fields: { toAccountId: message } });
  }
  const closed = await retryOnWriteConflict(() =>
    db.transaction(async (tx) => {
      if (!(await lockCustomer(tx, customerId))) throw new AppError('not_found', 'No such customer');
      const account = await openAccountOf(tx, customerId, accountId, { lock: true });
      const destination = await openAccountOf(tx, customerId, toAccountId, { lock: true });
      await refuseWhileInUse(tx, account);
      const interestCents = await payUnpaidInterest(dependencies, tx, account);
      const movedCents = await moveWholeBalance(dependencies, tx, account, destination);
      if (!(await markAccountClosed(tx, account.id, dependencies.clock))) throw new Error(`account ${account.id} was closed twice`);
      await recordAudit(
        tx,
        auditEntryOf(requester.actor, {
          action: 'account.closed',
          subject: account.id,
          outcome: 'success',
          details: { toAccountId: destination.id, interestCents: interestCents.toString(), movedCents: movedCents.toString(), ...reasonDetails(requester) },
        }),
      );
      return presentAccountById(tx, customerId, account.id);
    }),
  );
  publishAccountsChanged(dependencies, customerId);
  return closed;
}

async function refuseWhileInUse(tx: Queryable, account: ManagedAccountRow): Promise<void> {
  const reasons = dependentsWords(await dependentsOf(tx, account), account.type);
  const owed = await owedCents(tx, account);
  if (owed > 0n) reasons.push(`it owes the bank ${formatMoney(owed)} after a returned deposit`);
  if (reasons.length > 0) throw inUse(reasons);
}

/** The interest accrued and not yet paid, paid into the account now (kind `interest`): answers the cents paid. */
async function payUnpaidInterest(dependencies: AccountManagementDependencies, tx: Queryable, account: ManagedAccountRow): Promise<bigint> {
  // The days since the last end of day are accrued first (up to yesterday, the bank's date), so the close pays them too.
  await accrueAccountUntil(tx, dependencies.config.bankTimeZone, account.id, await bankDate(tx, dependencies.config, dependencies.clock));
  const interestCents = await unpaidInterestCents(tx, account.id);
  if (interestCents === 0n) return 0n;
  const paid = await moveMoney(
    tx,
    {
      id: closingInterestIdOf(account.id),
      kind: 'interest',
      customerId: account.customer_id,
      fromAccountId: null,
      toAccountId: account.id,
      amountCents: interestCents,
      counterpartyName: interestCounterpartyName,
      message: `Interest paid on closing ${account.name}`,
    },
    dependencies.clock,
  );
  if (paid.outcome !== 'made') throw new Error(`the interest of closing account ${account.id} was refused: ${paid.code}`);
  return interestCents;
}

/** Everything left in the account, moved to `destination` as an own transfer; after it the account holds nothing. */
async function moveWholeBalance(
  dependencies: AccountManagementDependencies,
  tx: Queryable,
  account: ManagedAccountRow,
  destination: ManagedAccountRow,
): Promise<bigint> {
  const balance = await ledgerBalance(tx, account);
  // Anything reserved (a hold) would make the two differ: what depends on it was refused above, so this is a defect.
  if (balance.availableCents !== balance.balanceCents) throw inUse(['money in it is still reserved by a pending transaction']);
  if (balance.balanceCents > 0n) {
    const moved = await moveMoney(
      tx,
      {
        id: derivedUuid('account-closing', account.id),
        kind: 'own',
        customerId: account.customer_id,
        fromAccountId: account.id,
        toAccountId: destination.id,
        amountCents: balance.balanceCents,
        // As any own transfer names it: the account the money goes to.
        counterpartyName: destination.name,
        message: `Balance of ${account.name} ${account.number.slice(-4)}, closed`,
      },
      dependencies.clock,
    );
    if (moved.outcome !== 'made') throw new Error(`the balance of closing account ${account.id} could not move: ${moved.code}`);
  }
  const after = await ledgerBalance(tx, account);
  if (after.balanceCents !== 0n || after.availableCents !== 0n) throw new Error(`closing account ${account.id} still holds ${after.balanceCents} cents`);
  return balance.balanceCents;
}

async function ledgerBalance(tx: Queryable, account: ManagedAccountRow) {
  const [ledgerAccount] = await lookupAccounts(tx, [account.ledger_account_id]);
  if (!ledgerAccount) throw new Error(`customer account ${account.id} has no ledger account`);
  return balanceOf(ledgerAccount);
}
