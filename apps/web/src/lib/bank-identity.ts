import { createContext, use } from 'react';
import type { BankMode } from '@strongroom/contracts/platform.ts';

/**
 * The bank's name, mode and time zone come from meta tags the server fills in index.html, so they
 * are known synchronously at first paint: the sandbox banner can never flash in late, and no
 * request is needed. An unfilled placeholder means the page came from a dev or preview server.
 */
export interface BankIdentity {
  name: string;
  mode: BankMode;
  /**
   * The bank's time zone (`BANK_TIME_ZONE`): the calendar a money line's date is on, as in the
   * history filter, the statements and the dashboard's month (docs/product.md, "Dates").
   */
  timeZone: string;
}

export const defaultBankName = 'Strongroom Demo Bank';
/** The server's default `BANK_TIME_ZONE`. */
export const defaultBankTimeZone = 'America/New_York';

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function metaContent(root: ParentNode, name: string): string {
  return root.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';
}

function isPlaceholder(value: string): boolean {
  return value.length === 0 || /^%[A-Z_]+%$/.test(value);
}

export function readBankIdentity(root: ParentNode = document): BankIdentity {
  const name = metaContent(root, 'bank-name');
  const mode = metaContent(root, 'bank-mode');
  const timeZone = metaContent(root, 'bank-time-zone');
  return {
    name: isPlaceholder(name) ? defaultBankName : name,
    timeZone: !isPlaceholder(timeZone) && isTimeZone(timeZone) ? timeZone : defaultBankTimeZone,
    // Anything but an explicit "production" is treated as a sandbox: a missing banner could let a
    // demo be mistaken for a real bank, which is the worse mistake.
    mode: mode === 'production' ? 'production' : 'sandbox',
  };
}

export const BankIdentityContext = createContext<BankIdentity>({ name: defaultBankName, mode: 'sandbox', timeZone: defaultBankTimeZone });

export function useBankIdentity(): BankIdentity {
  return use(BankIdentityContext);
}
