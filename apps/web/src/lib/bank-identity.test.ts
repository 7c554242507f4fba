import { describe, expect, it } from 'vitest';
import { readBankIdentity } from './bank-identity.ts';

function head(name: string, mode: string): ParentNode {
  const element = document.createElement('head');
  element.innerHTML = `<meta name="bank-name" content="${name}"><meta name="bank-mode" content="${mode}">`;
  return element;
}

describe('readBankIdentity', () => {
  it('reads the name and mode the server filled into index.html', () => {
    expect(readBankIdentity(head('First Civic Bank', 'production'))).toEqual({ name: 'First Civic Bank', mode: 'production' });
  });

  it('falls back to the sandbox defaults when the placeholders were not filled', () => {
    expect(readBankIdentity(head('%BANK_NAME%', '%BANK_MODE%'))).toEqual({ name: 'Strongroom Demo Bank', mode: 'sandbox' });
  });

  it('treats anything but "production" as a sandbox, so the banner errs on the safe side', () => {
    expect(readBankIdentity(head('Bank', 'prod')).mode).toBe('sandbox');
  });
});
