import { describe, expect, it } from 'vitest';
import type { LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import { readablePdfText } from '../../test/pdf-text.ts';
import { toolMissing } from '../../test/statements.ts';
import { schedulePdf } from './documents.ts';

/** A loan applied for and not yet approved: no terms, no schedule, no disclosure. */
const applied: LoanDetailResponse = {
  loan: {
    id: '5f0c7d4e-8a31-4f7e-9d52-2c1b6a9e0f13',
    status: 'submitted',
    maritalStatus: 'single',
    occupation: 'Engineer',
    address: '1 Main St',
    purpose: 'Car',
    requestedAmountCents: 100_000,
    annualIncomeCents: 6_000_000,
    durationMonths: 12,
    amountCents: null,
    aprBps: null,
    termMonths: null,
    balanceCents: null,
    nextDueDate: null,
    nextPaymentCents: null,
    rejectionReason: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    disbursedAt: null,
  },
  schedule: [],
  disclosure: null,
};

const print = (customerName: string) => schedulePdf(applied, { bankName: 'Strongroom', customerName, generatedAt: new Date('2026-01-05T10:00:00Z') });

describe.skipIf(toolMissing('pdftotext'))('the loan schedule prints every name as written', () => {
  for (const customerName of ['Zoë 🐝 نور Núñez', 'نور الهدى', '李小龙 דוד כהן', 'Łukasz 🌧️ 李小龙 👩‍💻']) {
    it(`prints "${customerName}" so it reads back in logical order, with no '?' in its place`, async () => {
      const text = readablePdfText(await print(customerName));
      expect(text).toContain(customerName.normalize('NFKC'));
      expect(text).not.toContain('?');
    });
  }

  it('draws a name that starts in Hebrew right to left as a whole, the Chinese after it on its left', async () => {
    // The Bidirectional Algorithm takes a text's direction from its first letter (rules P2, P3),
    // so the Hebrew reads first from the right. pdftotext reads the line from the left.
    const text = readablePdfText(await print('דוד כהן 李小龙'));
    expect(text).toContain('李小龙 דוד כהן');
    expect(text).not.toContain('?');
  });
});
