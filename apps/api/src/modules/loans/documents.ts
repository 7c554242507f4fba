import PDFDocument from 'pdfkit';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { formatAprBps, type LoanDetailResponse } from '@strongroom/contracts/loans.ts';
import { unicodeTextAt, type PdfWeight } from '../../platform/pdf-fonts.ts';
import { csvField, guardFormula, standardFontText } from '../statements/service.ts';

/**
 * The schedule as a file to keep: CSV (the cells guarded against spreadsheet formulas, as
 * statements are) and PDF (pdfkit, Helvetica when it can print a text and embedded Noto fonts for
 * a name in another script, platform/pdf-fonts.ts, as statements are), each with the Truth in
 * Lending box above the instalments.
 */
export const scheduleCsvHeader = 'number,dueDate,payment,principal,interest,balanceAfter,status';
const lineBreak = '\r\n';

const statusWords = { due: 'Due', paid: 'Paid', late: 'Late' } as const;

function decimal(cents: number): string {
  return formatMoney(BigInt(cents), 'decimal');
}

export function scheduleCsv(detail: LoanDetailResponse): string {
  const lines = [scheduleCsvHeader];
  for (const line of detail.schedule) {
    lines.push(
      [
        String(line.number),
        line.dueDate,
        decimal(line.paymentCents),
        decimal(line.principalCents),
        decimal(line.interestCents),
        decimal(line.balanceAfterCents),
        csvField(guardFormula(statusWords[line.status])),
      ].join(','),
    );
  }
  return `${lines.join(lineBreak)}${lineBreak}`;
}

const pageSize = { width: 612, height: 792 };
const margin = 48;
const rightEdge = pageSize.width - margin;
const rowHeight = 14;
const columns = { number: margin, dueDate: 90, paymentRight: 250, principalRight: 330, interestRight: 400, balanceRight: 490, status: 506 };

export async function schedulePdf(detail: LoanDetailResponse, facts: { bankName: string; customerName: string; generatedAt: Date }): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [pageSize.width, pageSize.height],
    margin,
    info: { Title: `Loan repayment schedule ${detail.loan.id}`, Author: standardFontText(facts.bankName), CreationDate: facts.generatedAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const at = (text: string, x: number, y: number, weight: PdfWeight = 'regular') => unicodeTextAt(doc, text, weight, x, y);
  const right = (text: string, edge: number, y: number) => doc.text(text, edge - doc.widthOfString(text), y, { lineBreak: false });

  doc.font('Helvetica-Bold').fontSize(18);
  at(facts.bankName, margin, margin, 'bold');
  doc.font('Helvetica').fontSize(11);
  at('Loan repayment schedule', margin, margin + 26);
  doc.fontSize(9);
  right(`Generated ${facts.generatedAt.toISOString().slice(0, 10)}`, rightEdge, margin + 4);
  at(facts.customerName, margin, margin + 46);
  const { loan, disclosure } = detail;
  if (loan.amountCents !== null && loan.aprBps !== null && loan.termMonths !== null) {
    at(`Loan of ${formatMoney(BigInt(loan.amountCents))} at ${formatAprBps(loan.aprBps)} a year over ${loan.termMonths} months`, margin, margin + 60);
  }

  let y = margin + 84;
  if (disclosure) {
    // The federal Truth in Lending box (Reg Z 1026.18): four figures side by side.
    const boxWidth = (rightEdge - margin) / 4;
    const boxes: [string, string, string][] = [
      ['ANNUAL PERCENTAGE RATE', 'The cost of your credit as a yearly rate.', formatAprBps(disclosure.aprBps)],
      ['FINANCE CHARGE', 'The dollar amount the credit will cost you.', formatMoney(BigInt(disclosure.financeChargeCents))],
      ['Amount Financed', 'The amount of credit provided to you.', formatMoney(BigInt(disclosure.amountFinancedCents))],
      ['Total of Payments', 'What you will have paid after all scheduled payments.', formatMoney(BigInt(disclosure.totalOfPaymentsCents))],
    ];
    boxes.forEach(([title, explanation, figure], index) => {
      const x = margin + index * boxWidth;
      doc.rect(x, y, boxWidth, 70).stroke();
      doc.font('Helvetica-Bold').fontSize(7.5);
      doc.text(title, x + 6, y + 6, { width: boxWidth - 12 });
      doc.font('Helvetica').fontSize(7);
      doc.text(explanation, x + 6, y + 20, { width: boxWidth - 12 });
      doc.font('Helvetica-Bold').fontSize(11);
      doc.text(figure, x + 6, y + 50, { width: boxWidth - 12, lineBreak: false });
    });
    y += 88;
  }

  const header = () => {
    doc.font('Helvetica-Bold').fontSize(8.5);
    at('No.', columns.number, y, 'bold');
    at('Due date', columns.dueDate, y, 'bold');
    right('Payment', columns.paymentRight, y);
    right('Principal', columns.principalRight, y);
    right('Interest', columns.interestRight, y);
    right('Balance', columns.balanceRight, y);
    at('Status', columns.status, y, 'bold');
    y += rowHeight;
    doc.font('Helvetica').fontSize(8.5);
  };
  header();
  for (const line of detail.schedule) {
    if (y > pageSize.height - margin - rowHeight) {
      doc.addPage();
      y = margin;
      header();
    }
    at(String(line.number), columns.number, y);
    at(line.dueDate, columns.dueDate, y);
    right(formatMoney(BigInt(line.paymentCents)), columns.paymentRight, y);
    right(formatMoney(BigInt(line.principalCents)), columns.principalRight, y);
    right(formatMoney(BigInt(line.interestCents)), columns.interestRight, y);
    right(formatMoney(BigInt(line.balanceAfterCents)), columns.balanceRight, y);
    at(statusWords[line.status], columns.status, y);
    y += rowHeight;
  }
  if (detail.schedule.length === 0) at('No schedule yet: a schedule is made when the loan is approved.', margin, y);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
