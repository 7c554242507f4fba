import { describe, expect, it } from 'vitest';
import { readablePdfText } from '../../test/pdf-text.ts';
import { toolMissing } from '../../test/statements.ts';
import { letterContent, letterPdf } from './letter-pdf.ts';
import type { LetterFacts, LetterKind } from './letters.ts';

/** A card charge reported on Monday 2026-11-23: provisional credit by 2026-12-07, resolved by 2027-01-07. */
const base: LetterFacts = {
  customerName: 'Ada Lovelace',
  bankName: 'Strongroom Bank',
  date: '2026-11-23',
  transaction: { description: 'Card purchase at Corner Coffee', amountCents: '4250', date: '2026-11-18' },
  reason: 'I did not make or allow this',
  receivedOn: '2026-11-23',
  provisionalCreditBy: '2026-12-07',
  resolveBy: '2027-01-07',
};

/** The PDF's text as one line: pdftotext's words with every run of white space (line breaks too) made one space. */
async function textOf(kind: LetterKind, facts: LetterFacts): Promise<string> {
  return readablePdfText(await letterPdf(kind, facts)).replace(/\s+/g, ' ');
}

const everyLetter = [
  'Strongroom Bank',
  'Ada Lovelace',
  'Dear Ada Lovelace,',
  'Card purchase at Corner Coffee',
  '$42.50',
  'November 18, 2026',
  'I did not make or allow this',
];

describe.skipIf(toolMissing('pdftotext'))("a dispute's letters say what Regulation E asks, read back from the PDF", () => {
  it('the acknowledgement: received on, what happens next, provisional credit by, finished by', async () => {
    const text = await textOf('acknowledgement', base);
    for (const part of everyLetter) expect(text).toContain(part);
    expect(text).toContain('We received your dispute');
    expect(text).toContain('November 23, 2026');
    expect(text).toContain('We received your notice of an error on November 23, 2026.');
    expect(text).toContain('What happens next: we will investigate the transaction above and tell you what we find.');
    expect(text).toContain(
      'If we have not finished our investigation by December 7, 2026, we will credit the amount in dispute to your account by that date, provisionally',
    );
    expect(text).toContain('We will finish our investigation by January 7, 2027.');
    expect(text).toContain('We will tell you the result in writing within 3 business days of finishing.');
  });

  it('the provisional credit notice: the amount and date, provisional, the result to come, 5 business days before taking it back', async () => {
    const text = await textOf('provisional_credit', { ...base, date: '2026-12-07', provisionalCreditCents: '4250' });
    for (const part of everyLetter) expect(text).toContain(part);
    expect(text).toContain('Provisional credit to your account');
    expect(text).toContain('On December 7, 2026, we credited $42.50 to your account.');
    expect(text).toContain('This credit is provisional');
    expect(text).toContain('We will finish our investigation by January 7, 2027 and tell you the result in writing.');
    expect(text).toContain('If we find that there was no error, we will take this credit back.');
    expect(text).toContain('at least 5 business days in advance');
  });

  it('the result for the customer: the explanation, and the credit is final', async () => {
    const text = await textOf('result', {
      ...base,
      date: '2026-12-10',
      provisionalCreditCents: '4250',
      decision: 'customer',
      explanation: 'The merchant confirmed the charge was made in error.',
    });
    for (const part of everyLetter) expect(text).toContain(part);
    expect(text).toContain('The result of your dispute');
    expect(text).toContain('found that there was an error');
    expect(text).toContain('Our explanation: The merchant confirmed the charge was made in error.');
    expect(text).toContain('The credit of $42.50 to your account is final');
    expect(text).not.toContain('take this amount back');
  });

  it('a denial after provisional credit: the explanation, the documents relied on, the amount and date taken back, overdrafts honoured until then', async () => {
    const text = await textOf('result', {
      ...base,
      date: '2026-12-10',
      provisionalCreditCents: '4250',
      decision: 'denied',
      explanation: 'The purchase was made with your card and its PIN at the merchant.',
      reversalOn: '2026-12-17',
    });
    for (const part of everyLetter) expect(text).toContain(part);
    expect(text).toContain('We have finished our investigation and found no error.');
    expect(text).toContain('Our explanation: The purchase was made with your card and its PIN at the merchant.');
    expect(text).toContain('You may ask us for copies of the documents we relied on to reach our decision. Ask us by secure message in online banking');
    expect(text).toContain('We will take this amount back from your account on December 17, 2026.');
    expect(text).toContain('we credited $42.50 to your account provisionally');
    expect(text).toContain('Until December 17, 2026, we will honour payments from your account that would overdraw it because of this credit, up to $42.50');
  });

  it('a denial before any credit says nothing of taking money back', async () => {
    const text = await textOf('result', { ...base, date: '2026-11-30', decision: 'denied', explanation: 'The charge matches your signed receipt.' });
    expect(text).toContain('You may ask us for copies of the documents we relied on');
    expect(text).not.toContain('take this amount back');
    expect(text).not.toContain('overdraw');
  });

  it('the information request: the question and how to answer', async () => {
    const text = await textOf('information_request', { ...base, date: '2026-11-25', explanation: 'Did anyone else have your card on November 18?' });
    for (const part of everyLetter) expect(text).toContain(part);
    expect(text).toContain('We need more information about your dispute');
    expect(text).toContain('Did anyone else have your card on November 18?');
    expect(text).toContain('How to answer: sign in to online banking, open your dispute and send us your answer there.');
    expect(text).toContain('We will still finish our investigation by January 7, 2027.');
  });

  it('the reversal notice: the credit taken back, the amount', async () => {
    const text = await textOf('reversal_notice', { ...base, date: '2026-12-17', provisionalCreditCents: '4250', decision: 'denied', reversalOn: '2026-12-17' });
    for (const part of everyLetter) expect(text).toContain(part);
    expect(text).toContain('We have taken back the provisional credit');
    expect(text).toContain('On December 17, 2026, we took back the provisional credit of $42.50 from your account');
  });

  it('prints a name in another script as written', async () => {
    const text = await textOf('acknowledgement', { ...base, customerName: 'Zoë Núñez 李小龙' });
    expect(text).toContain('Dear Zoë Núñez 李小龙,');
    expect(text).not.toContain('?');
  });

  it('is deterministic: the same facts give the same text', async () => {
    const facts = { ...base, provisionalCreditCents: '4250', date: '2026-12-07' };
    expect(await textOf('provisional_credit', facts)).toBe(await textOf('provisional_credit', structuredClone(facts)));
  });
});

describe('what each letter needs', () => {
  it('refuses a letter without the facts its kind says (an amount, a decision, a question)', () => {
    expect(() => letterContent('provisional_credit', base)).toThrow(/provisionalCreditCents/);
    expect(() => letterContent('result', { ...base, explanation: 'An explanation of the decision.' })).toThrow(/decision/);
    expect(() => letterContent('result', { ...base, decision: 'denied' })).toThrow(/explanation/);
    expect(() => letterContent('result', { ...base, decision: 'denied', explanation: 'No error found.', provisionalCreditCents: '100' })).toThrow(/reversalOn/);
    expect(() => letterContent('information_request', base)).toThrow(/explanation/);
    expect(() => letterContent('reversal_notice', base)).toThrow(/provisionalCreditCents/);
  });

  it('words the same facts the same way every time', () => {
    expect(letterContent('acknowledgement', base)).toEqual(letterContent('acknowledgement', { ...base }));
  });
});
