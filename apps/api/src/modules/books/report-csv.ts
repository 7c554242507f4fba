import type { BalanceSheet, IncomeStatement, ReportLine, TrialBalance } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { csvField, guardFormula } from '../statements/service.ts';

/**
 * The books' reports as CSV (docs/books.md, "Reports"): one header, one row per general-ledger
 * account, then the report's totals, amounts in dollars with two decimals (exact, from cents).
 * Names come from the chart, but a deposit product's name is data, so every text cell is guarded
 * against spreadsheet formulas like the statements' CSV.
 */
export type BookReport = TrialBalance | BalanceSheet | IncomeStatement;

export const reportCsvHeader = 'account,name,type,debit,credit,balance';
const lineBreak = '\r\n';

function dollars(cents: number | undefined): string {
  return cents === undefined ? '' : formatMoney(BigInt(cents), 'decimal');
}

function row(account: string, name: string, type: string, cents: Pick<ReportLine, 'debitCents' | 'creditCents' | 'balanceCents'>): string {
  return [
    csvField(guardFormula(account)),
    csvField(guardFormula(name)),
    type,
    dollars(cents.debitCents),
    dollars(cents.creditCents),
    dollars(cents.balanceCents),
  ].join(',');
}

/** The rows after the lines: what the report adds up to, labelled in the name column, the account column "total". */
export function totalRows(report: BookReport): [string, Pick<ReportLine, 'debitCents' | 'creditCents' | 'balanceCents'>][] {
  switch (report.report) {
    case 'trial-balance':
      return [['Total', { debitCents: report.totals.debitCents, creditCents: report.totals.creditCents }]];
    case 'balance-sheet':
      return [
        ['Total assets', { balanceCents: report.totals.assetsCents }],
        ['Total liabilities', { balanceCents: report.totals.liabilitiesCents }],
        ['Total equity', { balanceCents: report.totals.equityCents }],
        ['Total liabilities and equity', { balanceCents: report.totals.liabilitiesAndEquityCents }],
      ];
    case 'income-statement':
      return [
        ['Total income', { balanceCents: report.totals.incomeCents }],
        ['Total expenses', { balanceCents: report.totals.expensesCents }],
        ['Net income', { balanceCents: report.totals.netIncomeCents }],
      ];
  }
}

export function reportCsv(report: BookReport): string {
  const lines = report.lines.map((line) => row(line.account, line.name, line.type, line));
  const totals = totalRows(report).map(([name, cents]) => row('total', name, '', cents));
  return [reportCsvHeader, ...lines, ...totals].map((text) => `${text}${lineBreak}`).join('');
}

/** The file name a download is saved as: trial-balance-2026-11-27.csv, income-statement-2026-11-01-2026-11-27.pdf. */
export function reportFileName(report: BookReport, extension: 'csv' | 'pdf'): string {
  const days = report.report === 'income-statement' ? `${report.from}-${report.to}` : report.asOf;
  return `${report.report}-${days}.${extension}`;
}
