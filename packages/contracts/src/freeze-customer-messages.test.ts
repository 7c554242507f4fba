import { describe, expect, it } from 'vitest';
import { freezeCustomerMessageErrors, freezeCustomerMessages, freezeRequestSchema, neutralFreezeCustomerMessage } from './staff-customers.ts';

describe('what a frozen customer may be told (decision 053)', () => {
  it.each(freezeCustomerMessages.map((item) => [item.label, item.text]))('"%s" is a valid customer message as it stands', (_label, text) => {
    expect(freezeRequestSchema.safeParse({ reason: 'Checking source of funds', customerMessage: text }).success).toBe(true);
  });

  it.each(freezeCustomerMessages.map((item) => [item.label, item.text]))(
    '"%s" names no investigation, and does not leave contacting the bank as the only way forward',
    (_label, text) => {
      expect(text).not.toMatch(/investigat|suspic|fraud|compliance|law enforcement|police|report|source of funds|money laundering/i);
      expect(text).not.toMatch(/contact (customer care|us|support)[^.]*(to continue|to unlock|to release)/i);
      expect(text).toMatch(/we'll (be in touch|let you know|contact you)/i);
    },
  );

  it('has a neutral message for freezes made before customer messages, the first of the list', () => {
    expect(neutralFreezeCustomerMessage).toBe(freezeCustomerMessages[0].text);
    expect(new Set(freezeCustomerMessages.map((item) => item.id)).size).toBe(freezeCustomerMessages.length);
  });

  it('says what is wrong with a blank, short, long or two-line message, and gives a request without one the neutral message', () => {
    const messageError = (customerMessage: unknown) =>
      freezeRequestSchema.safeParse({ reason: 'Checking source of funds', customerMessage }).error?.issues.find((issue) => issue.path[0] === 'customerMessage')
        ?.message;
    expect(freezeRequestSchema.parse({ reason: 'Checking source of funds' }).customerMessage).toBe(neutralFreezeCustomerMessage);
    expect(messageError('   ')).toBe(freezeCustomerMessageErrors.missing);
    expect(messageError('Paused.')).toBe(freezeCustomerMessageErrors.tooShort);
    expect(messageError('x'.repeat(301))).toBe(freezeCustomerMessageErrors.tooLong);
    expect(messageError('Paused for now.\r\nWe will write.')).toBe('keep this on one line');
    expect(messageError('x'.repeat(300))).toBeUndefined();
  });
});
