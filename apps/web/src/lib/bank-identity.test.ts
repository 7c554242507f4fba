import { describe, expect, it } from 'vitest';
import { readBankIdentity } from './bank-identity.ts';

function head(name: string, mode: string, timeZone = '%BANK_TIME_ZONE%'): ParentNode {
  const element = document.createElement('head');
  element.innerHTML = `<meta name="bank-name" content="${name}"><meta name="bank-mode" content="${mode}"><meta name="bank-time-zone" content="${timeZone}">`;
  return element;
}

describe('readBankIdentity', () => {
  it('reads the name, mode and time zone the server filled into index.html', () => {
    expect(readBankIdentity(head('First Civic Bank', 'production', 'America/Los_Angeles'))).toEqual({
      name: 'First Civic Bank',
      mode: 'production',
      timeZone: 'America/Los_Angeles',
    });
  });

  it("takes the server's default time zone for a placeholder, a missing tag or a name that is no time zone", () => {
    expect(readBankIdentity(head('Bank', 'production')).timeZone).toBe('America/New_York');
    expect(readBankIdentity(head('Bank', 'production', 'Mars/Olympus_Mons')).timeZone).toBe('America/New_York');
    const withoutTag = document.createElement('head');
    withoutTag.innerHTML = '<meta name="bank-name" content="Bank">';
    expect(readBankIdentity(withoutTag).timeZone).toBe('America/New_York');
  });

  it('falls back to the sandbox defaults when the placeholders were not filled', () => {
    expect(readBankIdentity(head('%BANK_NAME%', '%BANK_MODE%'))).toEqual({ name: 'Strongroom Demo Bank', mode: 'sandbox', timeZone: 'America/New_York' });
  });

  it('treats anything but "production" as a sandbox, so the banner errs on the safe side', () => {
    expect(readBankIdentity(head('Bank', 'prod')).mode).toBe('sandbox');
  });
});
