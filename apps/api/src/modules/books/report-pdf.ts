import PDFDocument from 'pdfkit';
import type { ReportLine } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { unicodeParagraph } from '../../platform/pdf-fonts.ts';
import { standardFontText } from '../statements/service.ts';
import { totalRows, type BookReport } from './report-csv.ts';

/**
 * The books' reports as PDFs for finance staff and auditors (docs/books.md, "Reports"): the bank's
 * name, the report and its day or range, whether the day is closed, every line and the totals.
 * An open day's figures can still change, so the page says so in words before any figure.
 */

export const provisionalNotice = 'Provisional: this day is still open';

const titles = { 'trial-balance': 'Trial balance', 'balance-sheet': 'Balance sheet', 'income-statement': 'Income statement' } as const;
const longDay = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

function dayText(day: string): string {
  return longDay.format(new Date(`${day}T00:00:00Z`));
}

export function periodText(report: BookReport): string {
  return report.report === 'income-statement' ? `From ${dayText(report.from)} through ${dayText(report.to)}` : `As of ${dayText(report.asOf)}`;
}

function money(cents: number | undefined): string {
  return cents === undefined ? '' : formatMoney(BigInt(cents));
}

/** The report's blocks: a heading (or none) and its lines, so the balance sheet prints its three sections apart. */
function blocks(report: BookReport): { heading: string | null; lines: ReportLine[] }[] {
  switch (report.report) {
    case 'trial-balance':
      return [{ heading: null, lines: report.lines }];
    case 'balance-sheet':
      return [
        { heading: 'Assets', lines: report.assets.lines },
        { heading: 'Liabilities', lines: report.liabilities.lines },
        { heading: 'Equity', lines: report.equity.lines },
      ];
    case 'income-statement':
      return [
        { heading: 'Income', lines: report.income.lines },
        { heading: 'Expenses', lines: report.expenses.lines },
      ];
  }
}

const accentColor = '#1a4fd8';
const textColor = '#1f2937';
const warningColor = '#9a3412';
const margin = 48;
const rowHeight = 16;

/** The report as a PDF of Letter pages, built in memory (a few kilobytes). */
export async function reportPdf(report: BookReport, bankName: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margin,
    info: { Title: `${titles[report.report]}: ${periodText(report)}`, Author: standardFontText(bankName) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const width = doc.page.width - margin * 2;
  const amountWidth = 100;
  const twoColumns = report.report === 'trial-balance';
  const nameWidth = width - 50 - amountWidth * (twoColumns ? 2 : 1);
  const bottom = doc.page.height - margin - rowHeight;

  function row(cells: { account: string; name: string; first: string; second?: string }, bold = false): void {
    if (doc.y > bottom) doc.addPage();
    const top = doc.y;
    doc
      .fillColor(textColor)
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9);
    doc.text(cells.account, margin, top, { width: 46, lineBreak: false });
    doc.text(standardFontText(cells.name), margin + 50, top, { width: nameWidth - 6, lineBreak: false, ellipsis: true });
    doc.text(cells.first, margin + 50 + nameWidth, top, { width: amountWidth, align: 'right', lineBreak: false });
    if (cells.second !== undefined)
      doc.text(cells.second, margin + 50 + nameWidth + amountWidth, top, { width: amountWidth, align: 'right', lineBreak: false });
    doc.y = top + rowHeight;
  }

  unicodeParagraph(doc.fillColor(accentColor).fontSize(18), bankName, 'bold', { x: margin, y: margin }, { width });
  doc.moveDown(0.3);
  doc.fillColor(textColor).font('Helvetica-Bold').fontSize(14).text(titles[report.report], margin, doc.y, { width });
  doc.font('Helvetica').fontSize(10).text(periodText(report), margin, doc.y, { width });
  doc.moveDown(0.3);
  if (report.closed) doc.text('Closed day: these figures are final.', margin, doc.y, { width });
  else doc.fillColor(warningColor).font('Helvetica-Bold').text(provisionalNotice, margin, doc.y, { width });
  doc.moveDown(0.8);

  row(twoColumns ? { account: 'Account', name: 'Name', first: 'Debit', second: 'Credit' } : { account: 'Account', name: 'Name', first: 'Balance' }, true);
  for (const block of blocks(report)) {
    if (block.heading) row({ account: '', name: block.heading, first: '' }, true);
    for (const line of block.lines) {
      row(
        twoColumns
          ? { account: line.account, name: line.name, first: money(line.debitCents), second: money(line.creditCents) }
          : { account: line.account, name: line.name, first: money(line.balanceCents) },
      );
    }
  }
  doc.y += 4;
  for (const [name, cents] of totalRows(report)) {
    row(
      twoColumns
        ? { account: '', name, first: money(cents.debitCents), second: money(cents.creditCents) }
        : { account: '', name, first: money(cents.balanceCents) },
      true,
    );
  }
  if (report.report === 'trial-balance' || report.report === 'balance-sheet') {
    doc.y += 8;
    doc
      .fillColor(textColor)
      .font('Helvetica')
      .fontSize(9)
      .text(report.balanced ? 'The report balances.' : 'The report does NOT balance.', margin, doc.y, { width });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
