import { describe, expect, it } from 'vitest';
import { identityStatusSchema } from './auth.ts';
import { noAccountMessage, noAccountMessages } from './messages.ts';

describe('what a customer with no open account is told', () => {
  it('tells a customer whose identity is being checked that they only wait, and roughly how long', () => {
    expect(noAccountMessage('submitted')).toBe(noAccountMessages.identityPending);
    expect(noAccountMessage('submitted')).toMatch(/once we have checked your identity, usually within a day/);
  });

  it('tells a customer who has not sent a document, or whose document was refused, to send it', () => {
    expect(noAccountMessage('not_submitted')).toMatch(/Send us your identity document/);
    expect(noAccountMessage('rejected')).toMatch(/could not confirm your identity.*Send your document again/);
  });

  it('tells an approved customer without accounts that their accounts are closed', () => {
    expect(noAccountMessage('approved')).toBe(noAccountMessages.accountsClosed);
  });

  it.each(identityStatusSchema.options)('never sends a customer (%s) to customer care, nor says no account was found', (status) => {
    expect(noAccountMessage(status)).not.toMatch(/customer care|no account found|has not been created/i);
  });
});
