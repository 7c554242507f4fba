import { describe, expect, it } from 'vitest';
import { billerFormSchema, changesOf, formOf, requestOf } from './biller-form-schema.ts';

const valid = { ...formOf(null), name: 'Metro Gas', category: 'gas', accountNumberPattern: 'G\\d{8}', accountNumberExample: 'G12345678', reason: 'New biller' };

function messagesOf(form: typeof valid) {
  const parsed = billerFormSchema.safeParse(form);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe("the biller form's checks", () => {
  it('refuses a pattern that is not a regular expression, and an example the whole pattern does not match', () => {
    expect(messagesOf({ ...valid, paymentMethod: 'simulator', accountNumberPattern: 'G(\\d' })).toEqual({
      accountNumberPattern: 'the pattern is not a valid regular expression',
    });
    expect(messagesOf({ ...valid, paymentMethod: 'simulator', accountNumberExample: 'G123456789' })).toEqual({
      accountNumberExample: 'the example does not match the pattern',
    });
  });

  it('asks for the bank account for ACH only, and sends none for the simulator', () => {
    expect(messagesOf(valid)).toEqual({
      routingNumber: "enter the biller's 9-digit routing number",
      accountNumber: "enter the biller's account number at its bank",
    });
    expect(messagesOf({ ...valid, routingNumber: '011000016', accountNumber: '123' })).toEqual({
      routingNumber: 'routing number is not valid',
      accountNumber: 'an account number is 4 to 17 digits',
    });
    expect(messagesOf({ ...valid, routingNumber: '021000021', accountNumber: '123456789' })).toEqual({});
    const simulator = { ...valid, paymentMethod: 'simulator' as const, routingNumber: '021000021', accountNumber: '1234' };
    expect(messagesOf(simulator)).toEqual({});
    expect(requestOf(simulator)).toMatchObject({ paymentMethod: 'simulator', routingNumber: null, accountNumber: null });
  });

  it('lists only what an edit changes', () => {
    const biller = { id: 'b1', ...requestOf({ ...valid, paymentMethod: 'simulator' }) };
    expect(changesOf(biller, requestOf({ ...valid, paymentMethod: 'simulator', name: 'Metro Gas North' }))).toEqual([
      { label: 'Name', before: 'Metro Gas', after: 'Metro Gas North' },
    ]);
  });
});
