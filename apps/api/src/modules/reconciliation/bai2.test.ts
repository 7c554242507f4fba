import { describe, expect, it } from 'vitest';
import { Bai2ParseError, parseBai2, writeBai2, type Bai2File } from './bai2.ts';
import { specificationRecordExamples, specificationSample } from './fixtures/specification-sample.ts';

/** Issue 35 item 4: the BAI2 parser and writer, checked against the specification's own example. */

function parseError(text: string): Bai2ParseError {
  try {
    parseBai2(text);
  } catch (error) {
    if (error instanceof Bai2ParseError) return error;
    throw error;
  }
  throw new Error('the file parsed');
}

const sampleLines = specificationSample.trimEnd().split('\n');
const withoutLines = (lines: readonly string[], from: number, count: number) => lines.filter((_line, index) => index < from || index >= from + count);
/** The sample without the continuation example the specification added to its first account (lines 6 to 8). */
const consistentSample = `${withoutLines(sampleLines, 5, 3).join('\n')}\n`;

describe('BAI2: the specification sample', () => {
  it('refuses the sample as printed, at the account trailer whose total the added records broke', () => {
    const error = parseError(specificationSample);
    expect(error.line).toBe(9);
    expect(error.message).toBe('the account trailer (49) states a control total of 9150000, but the amounts it closes add up to 19150000');
  });

  it('reads every figure the specification states for the sample', () => {
    const file = parseBai2(consistentSample);
    expect(file).toMatchObject({ sender: '122099999', receiver: '123456789', createdAt: { date: '2004-06-21', time: '0200' }, fileId: '1' });
    expect(file.groups).toHaveLength(1);
    const [group] = file.groups;
    expect(group).toMatchObject({ ultimateReceiver: '031001234', originator: '122099999', asOfDate: '2004-06-20', currency: 'USD' });
    expect(group?.accounts.map((account) => account.accountNumber)).toEqual(['0123456789', '9876543210']);
    expect(group?.accounts[0]?.summaries).toEqual([
      { typeCode: '010', amountCents: 4_350_000n },
      { typeCode: '040', amountCents: 2_830_000n },
      { typeCode: '072', amountCents: 1_020_000n },
      { typeCode: '074', amountCents: 500_000n },
    ]);
    expect(group?.accounts[0]?.details).toEqual([
      { typeCode: '115', amountCents: 450_000n, fundsType: 'S', bankReference: null, customerReference: null, text: null },
    ]);
    // Two 88 continuations, a negative opening ledger and a negative opening available balance.
    expect(group?.accounts[1]?.summaries).toEqual([
      { typeCode: '010', amountCents: -500_000n },
      { typeCode: '100', amountCents: 1_000_000n },
      { typeCode: '400', amountCents: 2_000_000n },
      { typeCode: '190', amountCents: 500_000n },
      { typeCode: '110', amountCents: 1_000_000n },
      { typeCode: '072', amountCents: 500_000n },
      { typeCode: '074', amountCents: 500_000n },
      { typeCode: '040', amountCents: -1_500_000n },
    ]);
    expect(group?.accounts[1]?.details).toEqual([
      { typeCode: '115', amountCents: 500_000n, fundsType: 'S', bankReference: null, customerReference: null, text: 'LOCK BOX NO.68751' },
    ]);
  });

  it("reads the specification's continuation example once its trailers count it", () => {
    const corrected = specificationSample
      .replace('49,9150000,4/', '49,19150000,7/')
      .replace('98,13150000,2,11/', '98,23150000,2,14/')
      .replace('99,13150000,1,13/', '99,23150000,1,16/');
    const detail = parseBai2(corrected).groups[0]?.accounts[0]?.details[1];
    expect(detail).toEqual({
      typeCode: '115',
      amountCents: 10_000_000n,
      fundsType: 'S',
      bankReference: 'AX13612',
      customerReference: 'B096132',
      text: 'AMALGAMATED CORP. LOCKBOX DEPOSIT-MISC. RECEIVABLES',
    });
  });

  it("reads the record examples of the specification's section 3, whose control total is 72000000", () => {
    const { fileHeader, groupHeader, accountIdentifier, transactionDetail } = specificationRecordExamples;
    const file = parseBai2(
      [fileHeader, groupHeader, accountIdentifier, transactionDetail, '49,72000000,3/', '98,72000000,1,5/', '99,72000000,1,7/'].join('\n'),
    );
    const account = file.groups[0]?.accounts[0];
    expect(account).toEqual({
      accountNumber: '0975312468',
      currency: 'USD',
      summaries: [
        { typeCode: '010', amountCents: 500_000n },
        { typeCode: '190', amountCents: 70_000_000n },
      ],
      details: [{ typeCode: '165', amountCents: 1_500_000n, fundsType: '1', bankReference: 'DD1620', customerReference: null, text: ' DEALER PAYMENTS' }],
    });
  });
});

describe('BAI2: what the parser refuses, naming the line', () => {
  const cases: [string, string, number, RegExp][] = [
    [
      'a detail amount changed',
      consistentSample.replace('16,115,450000', '16,115,450001'),
      6,
      /control total of 9150000, but the amounts it closes add up to 9150001/,
    ],
    ['an account record count', consistentSample.replace('49,9150000,4/', '49,9150000,5/'), 6, /states 5 records, but it closes 4/],
    [
      'a group control total',
      consistentSample.replace('98,13150000,2,11/', '98,13150001,2,11/'),
      12,
      /group trailer \(98\) states a control total of 13150001/,
    ],
    ['a group account count', consistentSample.replace('98,13150000,2,11/', '98,13150000,3,11/'), 12, /states 3 accounts, but the group has 2/],
    ['a file record count', consistentSample.replace('99,13150000,1,13/', '99,13150000,1,12/'), 13, /file trailer \(99\) states 12 records, but it closes 13/],
    ['a continuation first', `88,100/\n${consistentSample}`, 1, /must follow the record it continues/],
    ['an unknown record', consistentSample.replace('16,115,450000', '17,115,450000'), 5, /unknown record code 17/],
    ['a record after the trailer', `${consistentSample}02,1,2,1,040620,,,/\n`, 14, /follows the file trailer/],
    ['a missing trailer', consistentSample.replace('99,13150000,1,13/\n', ''), 12, /ends before its file trailer/],
    ['a bad funds type', consistentSample.replace('16,115,450000,S', '16,115,450000,Q'), 5, /unknown funds type "Q"/],
    ['a bad date', consistentSample.replace('040620', '040631'), 2, /not a day of the calendar/],
    ['another version', consistentSample.replace(',65,,2/', ',65,,3/'), 1, /only BAI2 files \(version 2\)/],
  ];
  for (const [what, text, line, message] of cases) {
    it(`refuses ${what}`, () => {
      const error = parseError(text);
      expect(error.line).toBe(line);
      expect(error.message).toMatch(message);
    });
  }
});

describe('BAI2: funds types and the writer', () => {
  // Value-dated details as a Canadian bank sends them (each text padded and ended with "/").
  const valueDated = [
    '01,0004,12345,060321,0829,001,80,1,2/',
    '02,12345,0004,1,060317,,CAD,/',
    '03,10200123456,CAD,040,+000000000000,,,045,+000000000000,,/',
    '88,100,000000000002500,00001,V,060316,,400,000000000002500,00001,V,060316,/',
    '16,409,000000000002500,V,060316,,,,RETURNED CHEQUE     /',
    '16,108,000000000002500,D,2,0,1000,1,1500,REF1,CUST1,SPLIT, IN TWO',
    '49,+00000000000010000,000000005/',
    '98,+00000000000010000,000000001,000000007/',
    '99,+00000000000010000,000000001,000000009/',
  ].join('\r\n');

  it('skips the fields of value-dated (V) and distributed (D) availability', () => {
    const account = parseBai2(valueDated).groups[0]?.accounts[0];
    expect(account?.currency).toBe('CAD');
    expect(account?.summaries.map((summary) => [summary.typeCode, summary.amountCents])).toEqual([
      ['040', 0n],
      ['045', 0n],
      ['100', 2_500n],
      ['400', 2_500n],
    ]);
    expect(account?.details).toEqual([
      { typeCode: '409', amountCents: 2_500n, fundsType: 'V', bankReference: null, customerReference: null, text: 'RETURNED CHEQUE' },
      { typeCode: '108', amountCents: 2_500n, fundsType: 'D', bankReference: 'REF1', customerReference: 'CUST1', text: 'SPLIT, IN TWO' },
    ]);
  });

  it('writes files that read back the same, with control totals it computes', () => {
    for (const text of [consistentSample, valueDated]) {
      const parsed = parseBai2(text);
      const written = writeBai2(parsed);
      expect(parseBai2(written)).toEqual(parsed);
      expect(writeBai2(parseBai2(written))).toBe(written);
    }
    const file: Bai2File = {
      sender: '011000015',
      receiver: '123456780',
      createdAt: { date: '2026-03-02', time: '2359' },
      fileId: '260302',
      groups: [
        {
          originator: '011000015',
          ultimateReceiver: '123456780',
          asOfDate: '2026-03-02',
          currency: 'USD',
          accounts: [
            {
              accountNumber: '0001100001',
              currency: 'USD',
              summaries: [{ typeCode: '010', amountCents: -12_345n }],
              details: [{ typeCode: '455', amountCents: 7_000n, fundsType: '0', bankReference: 'B1', customerReference: 'C1', text: 'Bill payment, ACH' }],
            },
          ],
        },
      ],
    };
    const written = writeBai2(file);
    expect(written.split('\n').filter(Boolean).slice(-3)).toEqual(['49,-5345,3/', '98,-5345,1,5/', '99,-5345,1,7/']);
    expect(parseBai2(written)).toEqual(file);
  });

  it('refuses to write a field that would break the format', () => {
    const broken = (accountNumber: string): Bai2File => ({
      sender: 'S',
      receiver: 'R',
      createdAt: { date: '2026-03-02', time: '2359' },
      fileId: '1',
      groups: [
        {
          originator: 'S',
          ultimateReceiver: 'R',
          asOfDate: '2026-03-02',
          currency: 'USD',
          accounts: [{ accountNumber, currency: 'USD', summaries: [], details: [] }],
        },
      ],
    });
    expect(() => writeBai2(broken('12,34'))).toThrow(RangeError);
    expect(() => writeBai2(broken('12/34'))).toThrow(RangeError);
    expect(writeBai2(broken('1234'))).toContain('03,1234,USD/');
  });
});
