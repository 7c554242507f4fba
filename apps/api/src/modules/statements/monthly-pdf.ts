import type PDFDocument from 'pdfkit';
import { lineHeading } from '@strongroom/contracts/history-line.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { percentOfBps } from '@strongroom/contracts/monthly-statements.ts';
import { unicodeTextAt, unicodeWidth, type PdfWeight } from '../../platform/pdf-fonts.ts';
import type { MonthlyStatementFile } from './monthly-service.ts';
import { streamedPdf } from './pdf.ts';
import type { StatementLine } from './service.ts';

/**
 * The monthly statement's PDF, with what Regulation DD (12 CFR 1030.6) asks of a periodic
 * statement: the period's first and last day, the opening and closing balances and how they tie
 * out, the APY earned, the interest earned this period and this year, each fee and the fees of the
 * period and the year, then every line with its running balance. Drawn a page at a time, as the
 * statement of any period (pdf.ts) is.
 */
const pageSize = { width: 612, height: 792 };
const margin = 48;
const rightEdge = pageSize.width - margin;
const footerTop = pageSize.height - margin;
const bottom = footerTop - 16;
const rowHeight = 13;
const bodyFontSize = 8.5;
const columns = { date: margin, description: 106, category: 356, amountRight: 474, balanceRight: rightEdge };
const descriptionWidth = columns.category - columns.description - 10;

type Document = InstanceType<typeof PDFDocument>;

interface Pen {
  doc: Document;
  statement: MonthlyStatementFile;
  weight: PdfWeight;
  y: number;
  page: number;
}

function font(pen: Pen, weight: PdfWeight, size: number): void {
  pen.weight = weight;
  pen.doc.font(weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
}

function widthOf(pen: Pen, text: string): number {
  return unicodeWidth(pen.doc, text, pen.weight);
}

function textAt(pen: Pen, text: string, x: number, y = pen.y): void {
  unicodeTextAt(pen.doc, text, pen.weight, x, y);
}

function rightAligned(pen: Pen, text: string, right: number, y = pen.y): void {
  textAt(pen, text, right - widthOf(pen, text), y);
}

function fit(pen: Pen, text: string, width: number): string {
  if (widthOf(pen, text) <= width) return text;
  let kept = [...text];
  while (kept.length > 0 && widthOf(pen, `${kept.join('')}…`) > width) kept = kept.slice(0, -1);
  return `${kept.join('').trimEnd()}…`;
}

function rule(pen: Pen, y: number): void {
  pen.doc.moveTo(margin, y).lineTo(rightEdge, y).lineWidth(0.5).stroke();
}

function footer(pen: Pen): void {
  font(pen, 'regular', 8);
  textAt(pen, `Account ${pen.statement.account.number}`, margin, footerTop);
  rightAligned(pen, `Page ${pen.page}`, rightEdge, footerTop);
}

/** A new page when `height` more would not fit above the footer. */
function room(pen: Pen, height: number): boolean {
  if (pen.y + height <= bottom) return false;
  footer(pen);
  pen.doc.addPage();
  pen.page += 1;
  font(pen, 'regular', 9);
  const { statement } = pen;
  textAt(
    pen,
    `${statement.bankName}: statement of account ${statement.account.number}, ${statement.periodStart} to ${statement.periodEnd} (continued)`,
    margin,
    margin,
  );
  pen.y = margin + 22;
  return true;
}

function header(pen: Pen): void {
  const { statement } = pen;
  font(pen, 'bold', 18);
  textAt(pen, statement.bankName, margin, margin);
  font(pen, 'regular', 11);
  textAt(pen, 'Monthly account statement', margin, margin + 26);
  font(pen, 'regular', 9);
  rightAligned(pen, `Statement period ${statement.periodStart} to ${statement.periodEnd}`, rightEdge, margin + 4);
  rightAligned(pen, `Dates are in the bank's time zone (${statement.timeZone})`, rightEdge, margin + 18);
  let y = margin + 58;
  font(pen, 'bold', 10);
  textAt(pen, statement.holder.name, margin, y);
  font(pen, 'regular', 9);
  for (const line of statement.holder.addressLines) {
    y += 13;
    textAt(pen, line, margin, y);
  }
  font(pen, 'bold', 10);
  rightAligned(pen, `${statement.account.type === 'savings' ? 'Savings account' : 'Checking account'} ${statement.account.number}`, rightEdge, margin + 58);
  font(pen, 'regular', 9);
  rightAligned(pen, statement.account.name, rightEdge, margin + 71);
  pen.y = Math.max(y, margin + 71) + 28;
}

function heading(pen: Pen, title: string): void {
  room(pen, 40);
  font(pen, 'bold', 11);
  textAt(pen, title, margin);
  rule(pen, pen.y + 14);
  pen.y += 20;
}

function figures(pen: Pen, rows: ReadonlyArray<[string, string, PdfWeight?]>): void {
  for (const [label, value, weight] of rows) {
    room(pen, 15);
    font(pen, weight ?? 'regular', 10);
    textAt(pen, label, margin);
    rightAligned(pen, value, rightEdge);
    pen.y += 15;
  }
}

function note(pen: Pen, text: string): void {
  room(pen, 14);
  font(pen, 'regular', 8.5);
  textAt(pen, text, margin);
  pen.y += 14;
}

function summary(pen: Pen): void {
  const { statement } = pen;
  const year = statement.periodEnd.slice(0, 4);
  heading(pen, 'Summary');
  figures(pen, [
    [`Opening balance on ${statement.periodStart}`, formatMoney(statement.openingBalanceCents)],
    ['Credits (money in)', formatMoney(statement.creditsCents)],
    ['Debits (money out)', formatMoney(-statement.debitsCents)],
    [`Closing balance on ${statement.periodEnd}`, formatMoney(statement.closingBalanceCents), 'bold'],
  ]);
  note(
    pen,
    `Opening balance + credits - debits = closing balance: ${formatMoney(statement.openingBalanceCents)} + ${formatMoney(statement.creditsCents)} - ${formatMoney(statement.debitsCents)} = ${formatMoney(statement.closingBalanceCents)}`,
  );
  pen.y += 10;
  heading(pen, 'Interest');
  figures(pen, [
    ['Annual percentage yield earned', percentOfBps(statement.apyEarnedBps)],
    ['Interest earned this period', formatMoney(statement.interestCents)],
    [`Interest earned this year (${year})`, formatMoney(statement.interestYearCents)],
  ]);
  note(pen, `On an average daily balance of ${formatMoney(statement.averageDailyBalanceCents)} over the ${statement.days} days of the period.`);
  pen.y += 10;
}

function tableHeader(pen: Pen): void {
  font(pen, 'bold', bodyFontSize);
  textAt(pen, 'Date', columns.date);
  textAt(pen, 'Description', columns.description);
  textAt(pen, 'Category', columns.category);
  rightAligned(pen, 'Amount', columns.amountRight);
  rightAligned(pen, 'Balance', columns.balanceRight);
  rule(pen, pen.y + 11);
  pen.y += 15;
  font(pen, 'regular', bodyFontSize);
}

function line(pen: Pen, item: StatementLine, withBalance: boolean): void {
  if (room(pen, rowHeight) && withBalance) tableHeader(pen);
  font(pen, 'regular', bodyFontSize);
  const withParty = lineHeading(item.party, item.description);
  textAt(pen, item.date, columns.date);
  textAt(pen, widthOf(pen, withParty) <= descriptionWidth ? withParty : fit(pen, item.description, descriptionWidth), columns.description);
  textAt(pen, fit(pen, item.category, columns.amountRight - 60 - columns.category), columns.category);
  rightAligned(pen, formatMoney(item.amountCents), columns.amountRight);
  if (withBalance) rightAligned(pen, formatMoney(item.balanceCents), columns.balanceRight);
  pen.y += rowHeight;
}

function fees(pen: Pen): void {
  const { statement } = pen;
  pen.y += 10;
  heading(pen, 'Fees');
  if (statement.feeLines.length === 0) note(pen, 'No fee was charged in this period.');
  for (const item of statement.feeLines) line(pen, item, false);
  figures(pen, [
    ['Total fees this period', formatMoney(statement.feesCents), 'bold'],
    [`Total fees this year (${statement.periodEnd.slice(0, 4)})`, formatMoney(statement.feesYearCents)],
  ]);
  if (statement.feeNote) note(pen, `Monthly maintenance fee: ${statement.feeNote}`);
}

export async function* monthlyStatementPdf(statement: MonthlyStatementFile): AsyncGenerator<Buffer, void, undefined> {
  const { doc, take, ended } = streamedPdf({
    title: `Statement of account ${statement.account.number}, ${statement.periodStart} to ${statement.periodEnd}`,
    bankName: statement.bankName,
    createdAt: statement.generatedAt,
  });

  const pen: Pen = { doc, statement, weight: 'regular', y: margin, page: 1 };
  header(pen);
  summary(pen);
  heading(pen, 'Transactions');
  tableHeader(pen);
  let next = await statement.batches.next();
  while (!next.done) {
    for (const item of next.value) line(pen, item, true);
    const chunk = await take();
    if (chunk) yield chunk;
    next = await statement.batches.next();
  }
  const count = next.value.lineCount;
  note(
    pen,
    count === 0
      ? 'No completed transactions in this period.'
      : `${count === 1 ? '1 completed transaction' : `${count} completed transactions`} in this period.`,
  );
  fees(pen);
  footer(pen);
  doc.end();
  await ended;
  const last = await take();
  if (last) yield last;
}
