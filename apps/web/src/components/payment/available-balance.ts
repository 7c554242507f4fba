import type { Account } from '@strongroom/contracts/accounts.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';

/**
 * What an amount field says before Confirm when the account chosen cannot pay it: the form has the
 * account's available balance already (it is in the account's label), so the customer need not
 * wait for the server's `insufficient_funds`, which stays as it is for a balance that moved since
 * (decision 060). Null when the account can pay, or is not among those loaded.
 */
export function moreThanAvailableMessage(accounts: readonly Account[], fromAccountId: string, amountCents: number): string | null {
  const account = accounts.find((candidate) => candidate.id === fromAccountId);
  if (!account || BigInt(amountCents) <= BigInt(account.availableCents)) return null;
  return `Insufficient funds: ${account.name} has ${formatMoney(account.availableCents)} available. Enter a smaller amount or choose another account.`;
}
