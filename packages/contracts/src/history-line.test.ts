import { describe, expect, it } from 'vitest';
import {
  isMoneyOutCategory,
  lineCategory,
  lineDescription,
  lineHeading,
  lineParty,
  lineKindsBySide,
  lineKindsOfCategory,
  signedLineCents,
  headingParty,
  type HistoryLineFacts,
  type LineSide,
} from './history-line.ts';
import { paymentKindSchema, type PaymentKind } from './payments.ts';
import { transactionCategorySchema, type TransactionCategory } from './transactions.ts';

const facts = (kind: PaymentKind, overrides: Partial<HistoryLineFacts> = {}): HistoryLineFacts => ({
  kind,
  message: '',
  counterpartyName: 'Frank Landlord',
  counterpartyBankName: null,
  senderName: null,
  ...overrides,
});

describe('lineCategory', () => {
  const expected: Record<LineSide, Partial<Record<PaymentKind, TransactionCategory>>> = {
    out: {
      own: 'Transfer',
      internal: 'Transfer',
      external: 'Transfer',
      card: 'Debit',
      bill: 'Transfer',
      withdrawal: 'Withdrawal',
      loan_repayment: 'Transfer',
      fee: 'Fee',
      dispute_reversal: 'Transfer',
    },
    in: {
      own: 'Credit',
      internal: 'Credit',
      deposit: 'Deposit',
      funding: 'Funding',
      loan_disbursement: 'Credit',
      referral_bonus: 'Credit',
      interest: 'Interest',
      fee_refund: 'Fee',
      dispute_credit: 'Credit',
    },
  };

  for (const side of ['out', 'in'] as const) {
    for (const kind of lineKindsBySide[side]) {
      it(`calls money ${side} by a ${kind} payment ${expected[side][kind]}`, () => {
        expect(lineCategory(kind, side)).toBe(expected[side][kind]);
      });
    }
  }

  it('covers every kind of payment on one side or the other', () => {
    const covered = new Set([...lineKindsBySide.out, ...lineKindsBySide.in]);
    expect([...covered].sort()).toEqual([...paymentKindSchema.options].sort());
  });
});

describe('lineDescription', () => {
  it('shows the reason the customer gave, on either side, whatever the kind', () => {
    for (const side of ['out', 'in'] as const) {
      for (const kind of lineKindsBySide[side]) {
        expect(lineDescription(facts(kind, { message: 'Rent for May' }), side)).toBe('Rent for May');
      }
    }
  });

  it('takes a reason of spaces only as no reason', () => {
    expect(lineDescription(facts('internal', { message: '   ' }), 'out')).toBe('To Frank Landlord');
  });

  it('calls the opening deposit so when it has no reason', () => {
    expect(lineDescription(facts('funding'), 'in')).toBe('Opening deposit');
  });

  it('calls a referral bonus so when it has no reason', () => {
    expect(lineDescription(facts('referral_bonus'), 'in')).toBe('Referral bonus');
  });

  it('calls interest, a monthly fee and a fee given back so when they have no reason: the bank is not a party to name', () => {
    expect(lineDescription(facts('interest'), 'in')).toBe('Interest paid');
    expect(lineDescription(facts('fee'), 'out')).toBe('Monthly maintenance fee');
    expect(lineDescription(facts('fee_refund'), 'in')).toBe('Fee refunded');
    for (const kind of ['interest', 'fee', 'fee_refund'] as const) expect(lineParty(facts(kind), 'in')).toBeNull();
  });

  it("calls a dispute's credit and its reversal so when they have no reason: the bank is not a party to name (issue 34)", () => {
    expect(lineDescription(facts('dispute_credit'), 'in')).toBe('Provisional credit');
    expect(lineDescription(facts('dispute_reversal'), 'out')).toBe('Provisional credit reversed');
    expect(lineParty(facts('dispute_credit'), 'in')).toBeNull();
    expect(lineParty(facts('dispute_reversal'), 'out')).toBeNull();
  });

  it('names the payee of money out without a reason, and its bank when there is one', () => {
    for (const kind of lineKindsBySide.out.filter((kind) => kind !== 'fee' && kind !== 'bill' && kind !== 'dispute_reversal')) {
      expect(lineDescription(facts(kind), 'out')).toBe('To Frank Landlord');
    }
    expect(lineDescription(facts('external', { counterpartyBankName: 'First Bank' }), 'out')).toBe('To Frank Landlord, First Bank');
    expect(lineDescription(facts('external', { counterpartyBankName: '' }), 'out')).toBe('To Frank Landlord');
  });

  it('names a bill payment without a reason by the biller and the last four characters of the account there, beside a reason otherwise', () => {
    const line = 'Bill payment to City Water, account ending 4821';
    const bill = facts('bill', { counterpartyName: 'City Water', accountEnding: '4821' });
    expect(lineDescription(bill, 'out')).toBe(line);
    expect(lineParty(bill, 'out')).toBe(line);
    expect(lineHeading(headingParty(bill, 'out'), lineDescription(bill, 'out'))).toBe(line);
    const withMemo = { ...bill, message: 'April water' };
    expect(lineHeading(headingParty(withMemo, 'out'), lineDescription(withMemo, 'out'))).toBe(`${line} · April water`);
    expect(lineDescription(facts('bill', { counterpartyName: 'City Water' }), 'out')).toBe('Bill payment to City Water');
  });

  it("heads an own transfer's line in as from the customer's own account: its facts name the account it went to", () => {
    expect(headingParty(facts('own'), 'in')).toBe('From your own account');
    expect(headingParty(facts('own'), 'out')).toBe('To Frank Landlord');
    expect(headingParty(facts('internal'), 'in')).toBe('From Frank Landlord');
  });

  it('names the sender of money in without a reason, as the paying side gave it when it did', () => {
    for (const kind of ['own', 'internal', 'deposit'] as const) {
      expect(lineDescription(facts(kind), 'in')).toBe('From Frank Landlord');
      expect(lineDescription(facts(kind, { senderName: 'Dana Payer' }), 'in')).toBe('From Dana Payer');
    }
  });
});

describe('lineParty and lineHeading', () => {
  it('names the payee before the reason of money out, and the sender before the reason of money in', () => {
    const rent = facts('internal', { message: 'Rent for May', counterpartyName: 'Grace Landlord' });
    expect(lineHeading(lineParty(rent, 'out'), lineDescription(rent, 'out'))).toBe('To Grace Landlord · Rent for May');
    const dinner = facts('internal', { message: 'Dinner', senderName: 'Ada Lovelace' });
    expect(lineHeading(lineParty(dinner, 'in'), lineDescription(dinner, 'in'))).toBe('From Ada Lovelace · Dinner');
    const abroad = facts('external', { message: 'Invoice 42', counterpartyBankName: 'First Bank' });
    expect(lineHeading(lineParty(abroad, 'out'), lineDescription(abroad, 'out'))).toBe('To Frank Landlord, First Bank · Invoice 42');
  });

  it('names the party once when the line has no reason', () => {
    const line = facts('external');
    expect(lineParty(line, 'out')).toBe('To Frank Landlord');
    expect(lineHeading(lineParty(line, 'out'), lineDescription(line, 'out'))).toBe('To Frank Landlord');
  });

  it('names no party for the opening deposit or a referral bonus: the bank is not a party to name', () => {
    expect(lineParty(facts('funding', { message: 'Welcome' }), 'in')).toBeNull();
    expect(lineParty(facts('referral_bonus'), 'in')).toBeNull();
    expect(lineHeading(null, 'Opening deposit')).toBe('Opening deposit');
  });

  it('calls paying a credit card a credit card payment, not a transfer to its holder', () => {
    const payment = facts('card', { counterpartyName: 'Dana Payer', paysCreditCard: true });
    expect(lineParty(payment, 'out')).toBe('Credit card payment');
    expect(lineDescription(payment, 'out')).toBe('Credit card payment');
    expect(lineHeading(lineParty(payment, 'out'), lineDescription(payment, 'out'))).toBe('Credit card payment');
    const withReason = facts('card', { message: 'May bill', paysCreditCard: true });
    expect(lineHeading(lineParty(withReason, 'out'), lineDescription(withReason, 'out'))).toBe('Credit card payment · May bill');
    expect(lineParty(facts('card'), 'out')).toBe('To Frank Landlord');
  });
});

describe('signedLineCents', () => {
  it('makes money out negative and leaves money in positive', () => {
    expect(signedLineCents(123_456n, 'out')).toBe(-123_456n);
    expect(signedLineCents(123_456n, 'in')).toBe(123_456n);
    expect(signedLineCents(0n, 'out')).toBe(0n);
  });

  it('refuses a negative payment amount', () => {
    expect(() => signedLineCents(-1n, 'in')).toThrow(RangeError);
  });
});

describe('categories', () => {
  it('lists for each category the side and kinds that make its lines', () => {
    expect(lineKindsOfCategory('Transfer')).toEqual({ out: ['own', 'internal', 'external', 'bill', 'loan_repayment', 'dispute_reversal'] });
    expect(lineKindsOfCategory('Debit')).toEqual({ out: ['card'] });
    expect(lineKindsOfCategory('Withdrawal')).toEqual({ out: ['withdrawal'] });
    expect(lineKindsOfCategory('Credit')).toEqual({ in: ['own', 'internal', 'loan_disbursement', 'referral_bonus', 'dispute_credit'] });
    expect(lineKindsOfCategory('Deposit')).toEqual({ in: ['deposit'] });
    expect(lineKindsOfCategory('Funding')).toEqual({ in: ['funding'] });
    expect(lineKindsOfCategory('Interest')).toEqual({ in: ['interest'] });
    // A fee goes out; a fee given back comes in: one category, both sides (the amount's sign says which).
    expect(lineKindsOfCategory('Fee')).toEqual({ out: ['fee'], in: ['fee_refund'] });
  });

  it('takes Transfer, Debit, withdraw and Fee as money out and the rest as money in (a fee given back is a Fee line in)', () => {
    const out = transactionCategorySchema.options.filter(isMoneyOutCategory);
    expect(out).toEqual(['Transfer', 'Withdrawal', 'Debit', 'Fee']);
  });
});
