import { z } from 'zod';
import { approveConnectRequestSchema, type ConnectRequest, type DataScope } from '@strongroom/contracts/connected-apps.ts';

/**
 * The consent form: the contract's own fields and messages ('choose at least one account',
 * 'choose at least one kind of data'), with the days bounded by what this request allows.
 */
export function consentFormSchema(maxDays: number) {
  return z.object({
    scopes: approveConnectRequestSchema.shape.scopes,
    accountIds: approveConnectRequestSchema.shape.accountIds,
    days: z.number({ error: 'enter a number of days' }).int('enter a whole number of days').min(1, 'at least 1 day').max(maxDays, `at most ${maxDays} days`),
  });
}

export interface ConsentFormValues {
  scopes: DataScope[];
  accountIds: string[];
  days: number;
}

/** Every cluster the app asks for is ticked, no account is, and the longest time allowed is proposed. */
export function consentFormDefaults(request: ConnectRequest): ConsentFormValues {
  return { scopes: [...request.scopes], accountIds: [], days: request.maxDays };
}

const endDateFormat = new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });

/** "Access ends on Tuesday, November 30, 2027": today plus `days`, in words. */
export function endDateInWords(days: number, now: Date = new Date()): string | undefined {
  if (!Number.isInteger(days) || days < 1) return undefined;
  const end = new Date(now.getTime());
  end.setDate(end.getDate() + days);
  return endDateFormat.format(end);
}

/** "Easy Checking ••3831" names the account already; a masked number that does not gets the name above it. */
export function accountChoice(account: ConnectRequest['accounts'][number]): { value: string; label: string; detail?: string } {
  return account.maskedNumber.startsWith(account.name)
    ? { value: account.id, label: account.maskedNumber }
    : { value: account.id, label: account.name, detail: account.maskedNumber };
}
