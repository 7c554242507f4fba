import PDFDocument from 'pdfkit';
import { lineHeading } from '@strongroom/contracts/history-line.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { standardFontCanPrint, unicodeTextAt, unicodeWidth, type PdfWeight } from '../../platform/pdf-fonts.ts';
import type { Statement, StatementLine, StatementTotals } from './service.ts';

/**
 * The PDF statement, drawn with pdfkit a page at a time: each finished page leaves the process
 * as soon as its batch of lines is drawn, so a year of transactions never sits in memory.
 * Text is printed in Helvetica, one of PDF's standard fonts (nothing to embed), when it can be;
 * a name or description in another script in embedded Noto subsets (platform/pdf-fonts.ts).
 */
const pageSize = { width: 612, height: 792 };
const margin = 48;
const rightEdge = pageSize.width - margin;
const footerTop = pageSize.height - margin;
const tableBottom = footerTop - 16;
const rowHeight = 13;
const bodyFontSize = 8.5;
const columns = { date: margin, description: 106, category: 356, amountRight: 474, balanceRight: rightEdge };
const descriptionWidth = columns.category - columns.description - 10;
const categoryWidth = columns.amountRight - 60 - columns.category;
/** Room the totals need below the last line: a rule, four lines and a note. */
const summaryHeight = 8 + 4 * 15 + 14;

export function standardFontText(text: string): string {
  let result = '';
  for (const character of text.normalize('NFC')) {
    result += standardFontCanPrint(character.codePointAt(0) ?? 0) ? character : /\s/.test(character) ? ' ' : '?';
  }
  return result;
}

type Document = InstanceType<typeof PDFDocument>;

/** The weight each document is writing in, so the helpers below print in it. */
const weights = new WeakMap<Document, PdfWeight>();

function useFont(doc: Document, weight: PdfWeight): Document {
  weights.set(doc, weight);
  return doc.font(weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica');
}

function widthOf(doc: Document, text: string): number {
  return unicodeWidth(doc, text, weights.get(doc) ?? 'regular');
}

function fit(doc: Document, text: string, width: number): string {
  if (widthOf(doc, text) <= width) return text;
  let kept = [...text];
  while (kept.length > 0 && widthOf(doc, `${kept.join('')}…`) > width) kept = kept.slice(0, -1);
  return `${kept.join('').trimEnd()}…`;
}

function textAt(doc: Document, text: string, x: number, y: number): void {
  unicodeTextAt(doc, text, weights.get(doc) ?? 'regular', x, y);
}

function rightAligned(doc: Document, text: string, right: number, y: number): void {
  textAt(doc, text, right - widthOf(doc, text), y);
}

function localTime(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(date);
}

function drawFirstPageHeader(doc: Document, statement: Statement): number {
  useFont(doc, 'bold').fontSize(18);
  textAt(doc, statement.bankName, margin, margin);
  useFont(doc, 'regular').fontSize(11);
  textAt(doc, 'Account statement', margin, margin + 26);
  doc.fontSize(9);
  rightAligned(doc, `Period ${statement.period.from} to ${statement.period.to}`, rightEdge, margin + 4);
  rightAligned(doc, `Generated ${localTime(statement.generatedAt, statement.timeZone)} (${statement.timeZone})`, rightEdge, margin + 18);

  let y = margin + 58;
  useFont(doc, 'bold').fontSize(10);
  textAt(doc, statement.holder.name, margin, y);
  useFont(doc, 'regular').fontSize(9);
  for (const line of statement.holder.addressLines) {
    y += 13;
    textAt(doc, line, margin, y);
  }
  const accountType = statement.account.type === 'savings' ? 'Savings account' : 'Checking account';
  useFont(doc, 'bold').fontSize(10);
  rightAligned(doc, `${accountType} ${statement.account.number}`, rightEdge, margin + 58);
  useFont(doc, 'regular').fontSize(9);
  rightAligned(doc, statement.account.name, rightEdge, margin + 71);

  y = Math.max(y, margin + 71) + 26;
  useFont(doc, 'bold').fontSize(10);
  textAt(doc, `Opening balance on ${statement.period.from}`, margin, y);
  rightAligned(doc, formatMoney(statement.openingBalanceCents), rightEdge, y);
  return y + 26;
}

function drawContinuationHeader(doc: Document, statement: Statement): number {
  useFont(doc, 'regular').fontSize(9);
  textAt(
    doc,
    `${statement.bankName}: statement of account ${statement.account.number}, ${statement.period.from} to ${statement.period.to} (continued)`,
    margin,
    margin,
  );
  return margin + 22;
}

function drawTableHeader(doc: Document, y: number): number {
  useFont(doc, 'bold').fontSize(bodyFontSize);
  textAt(doc, 'Date', columns.date, y);
  textAt(doc, 'Description', columns.description, y);
  textAt(doc, 'Category', columns.category, y);
  rightAligned(doc, 'Amount', columns.amountRight, y);
  rightAligned(doc, 'Balance', columns.balanceRight, y);
  doc
    .moveTo(margin, y + 11)
    .lineTo(rightEdge, y + 11)
    .lineWidth(0.5)
    .stroke();
  useFont(doc, 'regular').fontSize(bodyFontSize);
  return y + 15;
}

function drawFooter(doc: Document, statement: Statement, pageNumber: number): void {
  useFont(doc, 'regular').fontSize(8);
  textAt(doc, `Account ${statement.account.number}`, margin, footerTop);
  rightAligned(doc, `Page ${pageNumber}`, rightEdge, footerTop);
  doc.fontSize(bodyFontSize);
}

/** Who the line was with before its description where the column has room for both; else the description alone, which says why. */
function descriptionCell(doc: Document, line: StatementLine): string {
  const heading = lineHeading(line.party, line.description);
  return widthOf(doc, heading) <= descriptionWidth ? heading : fit(doc, line.description, descriptionWidth);
}

function drawLine(doc: Document, line: StatementLine, y: number): void {
  textAt(doc, line.date, columns.date, y);
  textAt(doc, descriptionCell(doc, line), columns.description, y);
  textAt(doc, fit(doc, line.category, categoryWidth), columns.category, y);
  rightAligned(doc, formatMoney(line.amountCents), columns.amountRight, y);
  rightAligned(doc, formatMoney(line.balanceCents), columns.balanceRight, y);
}

function drawSummary(doc: Document, statement: Statement, totals: StatementTotals, top: number): void {
  doc.moveTo(margin, top).lineTo(rightEdge, top).lineWidth(0.5).stroke();
  const rows: Array<[string, bigint]> = [
    [`Opening balance on ${statement.period.from}`, statement.openingBalanceCents],
    ['Total money in', totals.moneyInCents],
    ['Total money out', -totals.moneyOutCents],
    [
      `Closing balance ${statement.asOf < statement.period.endsAt ? `at ${localTime(statement.asOf, statement.timeZone)}` : `on ${statement.period.to}`}`,
      totals.closingBalanceCents,
    ],
  ];
  let y = top + 8;
  for (const [label, cents] of rows) {
    useFont(doc, label.startsWith('Closing') ? 'bold' : 'regular').fontSize(10);
    textAt(doc, label, margin, y);
    rightAligned(doc, formatMoney(cents), rightEdge, y);
    y += 15;
  }
  useFont(doc, 'regular').fontSize(8);
  const count = totals.lineCount === 1 ? '1 completed transaction' : `${totals.lineCount} completed transactions`;
  textAt(doc, `${count} in this period. Payments still pending appear on the statement of the day they complete.`, margin, y + 4);
}

/**
 * A statement's PDF document (Letter, the statements' margin) whose output is handed on page by
 * page: `take` waits for the next turn of the event loop, when pdfkit has pushed what it finished,
 * and answers it; `ended` settles when the document is complete. The any-period statement and the
 * monthly one (monthly-pdf.ts) are both written this way, so memory does not grow with the lines.
 */
export function streamedPdf(meta: { title: string; bankName: string; createdAt: Date }): {
  doc: Document;
  take: () => Promise<Buffer | null>;
  ended: Promise<void>;
} {
  const doc = new PDFDocument({
    size: [pageSize.width, pageSize.height],
    margin,
    info: { Title: meta.title, Author: standardFontText(meta.bankName), CreationDate: meta.createdAt },
  });
  const output: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => output.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const take = async (): Promise<Buffer | null> => {
    await new Promise((resolve) => setImmediate(resolve));
    return output.length > 0 ? Buffer.concat(output.splice(0)) : null;
  };
  return { doc, take, ended };
}

export async function* statementPdf(statement: Statement): AsyncGenerator<Buffer, void, undefined> {
  const { doc, take, ended } = streamedPdf({
    title: `Statement of account ${statement.account.number}, ${statement.period.from} to ${statement.period.to}`,
    bankName: statement.bankName,
    createdAt: statement.generatedAt,
  });

  let pageNumber = 1;
  let y = drawTableHeader(doc, drawFirstPageHeader(doc, statement));
  const newPage = () => {
    drawFooter(doc, statement, pageNumber);
    doc.addPage();
    pageNumber += 1;
    y = drawContinuationHeader(doc, statement);
  };

  let next = await statement.batches.next();
  while (!next.done) {
    for (const line of next.value) {
      if (y + rowHeight > tableBottom) {
        newPage();
        y = drawTableHeader(doc, y);
      }
      drawLine(doc, line, y);
      y += rowHeight;
    }
    const chunk = await take();
    if (chunk) yield chunk;
    next = await statement.batches.next();
  }
  const totals = next.value;
  if (totals.lineCount === 0) {
    textAt(doc, 'No completed transactions in this period.', columns.description, y);
    y += rowHeight;
  }
  if (y + 6 + summaryHeight > tableBottom) newPage();
  drawSummary(doc, statement, totals, y + 6);
  drawFooter(doc, statement, pageNumber);
  doc.end();
  await ended;
  const last = await take();
  if (last) yield last;
}
