import { createContext, use } from 'react';
import type { BankMode } from '@strongroom/contracts/platform.ts';

/**
 * The bank's name and mode come from two meta tags the server fills in index.html, so they are
 * known synchronously at first paint: the sandbox banner can never flash in late, and no request
 * is needed. An unfilled placeholder means the page came from a dev or preview server.
 */
export interface BankIdentity {
  name: string;
  mode: BankMode;
}

export const defaultBankName = 'Strongroom Demo Bank';

function metaContent(root: ParentNode, name: string): string {
  return root.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim() ?? '';
}

function isPlaceholder(value: string): boolean {
  return value.length === 0 || /^%[A-Z_]+%$/.test(value);
}

export function readBankIdentity(root: ParentNode = document): BankIdentity {
  const name = metaContent(root, 'bank-name');
  const mode = metaContent(root, 'bank-mode');
  return {
    name: isPlaceholder(name) ? defaultBankName : name,
    // Anything but an explicit "production" is treated as a sandbox: a missing banner could let a
    // demo be mistaken for a real bank, which is the worse mistake.
    mode: mode === 'production' ? 'production' : 'sandbox',
  };
}

export const BankIdentityContext = createContext<BankIdentity>({ name: defaultBankName, mode: 'sandbox' });

export function useBankIdentity(): BankIdentity {
  return use(BankIdentityContext);
}
