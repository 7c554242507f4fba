import nacha from '@midlandsbank/node-nacha';
import { describe, expect, it } from 'vitest';
import { buildReturnsFile } from '../../test/nacha-returns.ts';
import { NachaFormatError, parseNachaReturns, writeNachaFile, type NachaBatch, type NachaEntry } from './nacha.ts';

const entry = (overrides: Partial<NachaEntry>): NachaEntry => ({
  transactionCode: 22,
  routingNumber: '011000015',
  accountNumber: '4400123456',
  amountCents: 12_345n,
  individualId: 'A1B2C3',
  individualName: 'Dana Demo',
  traceNumber: '123456780000001',
  ...overrides,
});

const batch = (batchNumber: number, serviceClassCode: NachaBatch['serviceClassCode'], entryDescription: string, entries: NachaEntry[]): NachaBatch => ({
  serviceClassCode,
  companyName: 'Strongroom Demo Bank',
  companyId: '1123456780',
  entryDescription,
  effectiveDate: '261124',
  originatingDfi: '12345678',
  batchNumber,
  entries,
});

const file = (batches: NachaBatch[]) =>
  writeNachaFile({
    immediateDestination: '011000015',
    immediateDestinationName: 'Federal Reserve Bank',
    immediateOrigin: '123456780',
    immediateOriginName: 'Strongroom Demo Bank',
    createdAt: new Date('2026-11-23T10:15:00Z'),
    fileIdModifier: 'A',
    batches,
  });

describe('the NACHA file the bank writes', () => {
  const credits = [
    entry({ amountCents: 4_000n, traceNumber: '123456780000001' }),
    entry({
      transactionCode: 32,
      routingNumber: '021000021',
      accountNumber: '99887766',
      amountCents: 7n,
      individualName: 'Zoë Ångström',
      traceNumber: '123456780000002',
    }),
  ];
  const debits = [
    entry({ transactionCode: 27, amountCents: 20_000n, traceNumber: '123456780000003' }),
    entry({ transactionCode: 37, routingNumber: '026009593', amountCents: 1_999_999_999n, traceNumber: '123456780000004' }),
  ];
  const text = file([batch(1, 220, 'PAYMENT', credits), batch(2, 225, 'DEPOSIT', debits)]);
  const lines = text.split('\r\n').slice(0, -1);

  it('has records of exactly 94 characters, ending in CR LF, padded with nines to whole blocks of ten', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    for (const line of lines) expect(line).toHaveLength(94);
    expect(lines.length % 10).toBe(0);
    expect(lines.map((line) => line[0]).join('')).toBe('1566856689');
    const small = file([batch(1, 220, 'PAYMENT', credits.slice(0, 1))])
      .split('\r\n')
      .slice(0, -1);
    expect(small.map((line) => line[0]).join('')).toBe('1568999999');
    expect(small.slice(5)).toEqual(Array.from({ length: 5 }, () => '9'.repeat(94)));
  });

  it('reads back, field by field, in an independent parser from npm (@midlandsbank/node-nacha)', () => {
    const parsed = nacha.from(text).data;
    expect(parsed.file).toMatchObject({
      destination: ' 011000015',
      origin: ' 123456780',
      idModifier: 'A',
      destinationName: 'FEDERAL RESERVE BANK',
      originName: 'STRONGROOM DEMO BANK',
    });
    expect(
      parsed.batches.map((item) => [
        item.serviceClassCode,
        item.entryClassCode,
        item.description,
        item.effectiveDate,
        item.originatingDFIIdentification,
        item.num,
      ]),
    ).toEqual([
      [220, 'PPD', 'PAYMENT', '261124', '12345678', 1],
      [225, 'PPD', 'DEPOSIT', '261124', '12345678', 2],
    ]);
    const entries = parsed.batches.flatMap((item) => item.entries);
    expect(
      entries.map((item) => [
        item.transactionCode,
        `${String(item.receivingDFIIdentification).padStart(8, '0')}${item.checkDigit}`,
        item.dfiAccount,
        item.amount,
        item.receivingCompanyName,
        String(item.traceNumber),
      ]),
    ).toEqual([
      ['22', '011000015', '4400123456', 4_000, 'DANA DEMO', '123456780000001'],
      ['32', '021000021', '99887766', 7, 'ZOE ANGSTROM', '123456780000002'],
      ['27', '011000015', '4400123456', 20_000, 'DANA DEMO', '123456780000003'],
      ['37', '026009593', '4400123456', 1_999_999_999, 'DANA DEMO', '123456780000004'],
    ]);
  });

  it('controls each batch and the file with counts, totals and entry hashes that the entries add up to', () => {
    const parsed = nacha.from(text).data;
    const hashOf = (routings: string[]) => Number(routings.reduce((sum, routing) => sum + BigInt(routing.slice(0, 8)), 0n) % 10_000_000_000n);
    expect(parsed.batches[0]?.footer).toMatchObject({
      serviceClassCode: 220,
      entryAndAddendaCount: 2,
      totalDebit: 0,
      totalCredit: 4_007,
      entryHash: hashOf(['011000015', '021000021']),
    });
    expect(parsed.batches[1]?.footer).toMatchObject({
      serviceClassCode: 225,
      entryAndAddendaCount: 2,
      totalDebit: 2_000_019_999,
      totalCredit: 0,
      entryHash: hashOf(['011000015', '026009593']),
    });
    expect(parsed.file.footer).toMatchObject({
      batchCount: 2,
      blockCount: 1,
      entryAndAddendaCount: 4,
      totalDebit: 2_000_019_999,
      totalCredit: 4_007,
      entryHash: hashOf(['011000015', '021000021', '011000015', '026009593']),
    });
  });

  it('refuses a file with no entries, a routing number that is not nine digits and an amount that does not fit', () => {
    expect(() => file([batch(1, 220, 'PAYMENT', [])])).toThrow(NachaFormatError);
    expect(() => file([batch(1, 220, 'PAYMENT', [entry({ routingNumber: '0110000' })])])).toThrow(NachaFormatError);
    expect(() => file([batch(1, 220, 'PAYMENT', [entry({ amountCents: 10_000_000_000n })])])).toThrow(NachaFormatError);
  });
});

describe('the returns file the bank reads', () => {
  const returned = [
    {
      transactionCode: 26 as const,
      originalTraceNumber: '123456780000003',
      returnCode: 'R01',
      amountCents: 20_000n,
      accountNumber: '4400123456',
      routingNumber: '011000015',
      name: 'DANA DEMO',
    },
    {
      transactionCode: 21 as const,
      originalTraceNumber: '123456780000001',
      returnCode: 'R03',
      amountCents: 4_000n,
      accountNumber: '4400123456',
      routingNumber: '011000015',
      name: 'DANA DEMO',
    },
  ];

  it('is a file the independent parser reads too, with its addenda', () => {
    const parsed = nacha.from(buildReturnsFile(returned)).data;
    expect(parsed.file.footer).toMatchObject({ batchCount: 1, entryAndAddendaCount: 4, totalDebit: 20_000, totalCredit: 4_000 });
    expect(parsed.batches[0]?.entries.map((item) => item.transactionCode)).toEqual(['26', '21']);
  });

  it('gives each returned entry’s original trace number, reason code and amount', () => {
    expect(
      parseNachaReturns(buildReturnsFile(returned)).map(({ originalTraceNumber, returnCode, amountCents }) => ({
        originalTraceNumber,
        returnCode,
        amountCents,
      })),
    ).toEqual([
      { originalTraceNumber: '123456780000003', returnCode: 'R01', amountCents: 20_000n },
      { originalTraceNumber: '123456780000001', returnCode: 'R03', amountCents: 4_000n },
    ]);
  });

  it('refuses a damaged file whole: totals that do not add up, a cut line, a foreign record, no file control', () => {
    expect(() => parseNachaReturns(buildReturnsFile(returned, { corruptTotals: true }))).toThrow(/totals do not match/);
    const good = buildReturnsFile(returned).split('\n');
    expect(() => parseNachaReturns([...good.slice(0, 2), good[2]?.slice(0, 40), ...good.slice(3)].join('\n'))).toThrow(NachaFormatError);
    expect(() => parseNachaReturns([...good.slice(0, 2), `X${'0'.repeat(93)}`, ...good.slice(2)].join('\n'))).toThrow(/unknown record type/);
    expect(() => parseNachaReturns(good.filter((line) => !line.startsWith('9')).join('\n'))).toThrow(/no file control/);
    expect(() => parseNachaReturns('hello')).toThrow(/file header/);
  });
});
