import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';

import { depositsToday } from './review-repository.ts';

/**
 * How much one customer may pull from other banks in one day (docs/product.md section 6): deposits of
 * the bank's day (BANK_TIME_ZONE) that are being made, pending or cleared count; returned ones do
 * not. A customer whose first account opened in the last 30 days may have a lower allowance
 * (`DEPOSIT_NEW_CUSTOMER_DAILY_LIMIT_CENTS`), where most first-party deposit fraud happens.
 * Run it under the customer's row lock, so that two deposits at once cannot both take the rest.
 */
export const newCustomerDays = 30;

export async function refuseDepositOverLimit(
  tx: Queryable,
  config: Pick<Config, 'deposits' | 'bankTimeZone'>,
  customerId: string,
  amountCents: bigint,
): Promise<void> {
  const today = await depositsToday(tx, customerId, config.bankTimeZone, newCustomerDays);
  const limit = today.openedRecently ? config.deposits.newCustomerDailyLimitCents : config.deposits.dailyLimitCents;
  const used = today.todayCents;
  if (used + amountCents <= limit) return;
  const left = used >= limit ? 0n : limit - used;
  const message =
    left === 0n
      ? `Deposits are limited to ${formatMoney(limit)} a day, and you have reached it today. You can deposit again tomorrow.`
      : `Deposits are limited to ${formatMoney(limit)} a day. You can deposit up to ${formatMoney(left)} more today.`;
  throw new AppError('deposit_limit_exceeded', message, { fields: { amountCents: message } });
}
