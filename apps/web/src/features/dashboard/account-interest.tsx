import type { Account } from '@strongroom/contracts/accounts.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { percentOfBps } from '@strongroom/contracts/monthly-statements.ts';

type Earning = Pick<Account, 'interestRateBps' | 'apyBps' | 'interestThisYearCents'>;

/** An account that earns nothing now and has earned nothing this year says so in words instead of showing zeros. */
function paysInterest(account: Earning): boolean {
  return account.interestRateBps > 0 || account.apyBps > 0 || account.interestThisYearCents > 0;
}

/**
 * The account's product (when its name is not already the product's) and "1.50% interest, 1.51%
 * APY": the rate the balance earns today and its annual percentage yield, as Regulation DD prints
 * them, each kept on one line.
 */
export function AccountProduct({ account }: { account: Pick<Account, 'name' | 'productName'> & Earning }) {
  return (
    <p className="account__product">
      {account.productName === account.name ? null : <span className="account__product-name">{account.productName} · </span>}
      {paysInterest(account) ? (
        <>
          <span className="account__rate">{percentOfBps(account.interestRateBps)} interest</span>,{' '}
          <span className="account__rate">{percentOfBps(account.apyBps)} APY</span>
        </>
      ) : (
        'No interest'
      )}
    </p>
  );
}

/** Rows of the card's figures: interest earned this month (accrued, whole cents) and this year; none for an account that earns none. */
export function InterestFigures({ account }: { account: Earning & Pick<Account, 'interestThisMonthCents'> }) {
  if (!paysInterest(account)) return null;
  return (
    <>
      <div>
        <dt>Interest this month</dt>
        <dd className="tabular">{formatMoney(account.interestThisMonthCents)}</dd>
      </div>
      <div>
        <dt>Interest this year</dt>
        <dd className="tabular">{formatMoney(account.interestThisYearCents)}</dd>
      </div>
    </>
  );
}
