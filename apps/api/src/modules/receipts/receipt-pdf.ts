import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { unicodeParagraph } from '../../platform/pdf-fonts.ts';

/** What one receipt prints; every value is already worded and formatted. */
export interface ReceiptContent {
  bankName: string;
  reference: string;
  /** Label and value, in the order printed. */
  facts: readonly (readonly [string, string])[];
  /** Where the QR code leads: the public page that confirms the receipt. */
  verifyUrl: string;
  issuedAt: string;
  sandbox: boolean;
}

/** docs/product.md D11: the seed's heading, spelt correctly. */
export const receiptHeading = 'TRANSACTION RECEIPT';

const accentColor = '#1a4fd8';
const textColor = '#1f2937';
const mutedColor = '#6b7280';
const pageMarginPoints = 56;
const labelWidthPoints = 150;
const qrSizePoints = 120;
/** A receipt is one page of a few facts; anything near this is a defect, not a long receipt. */
const maxReceiptBytes = 2 * 1024 * 1024;

/**
 * The receipt as a PDF of one Letter page, built in memory (a few kilobytes). Text is printed in
 * Helvetica, a standard PDF font, when it can be, and a name in another script in embedded Noto
 * subsets (platform/pdf-fonts.ts), so every name prints as written and the text extracts cleanly.
 */
export async function renderReceiptPdf(receipt: ReceiptContent): Promise<Buffer> {
  const qrPng = await QRCode.toBuffer(receipt.verifyUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 360 });
  const document = new PDFDocument({
    size: 'LETTER',
    margin: pageMarginPoints,
    info: { Title: `${receiptHeading} ${receipt.reference}`, Author: receipt.bankName, Subject: `Receipt ${receipt.reference}`, Keywords: receipt.reference },
  });
  const chunks: Buffer[] = [];
  let size = 0;
  const finished = new Promise<Buffer>((resolve, reject) => {
    document.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxReceiptBytes) reject(new Error('a receipt PDF grew beyond its limit'));
      chunks.push(chunk);
    });
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.on('error', reject);
  });

  const left = pageMarginPoints;
  const width = document.page.width - pageMarginPoints * 2;
  unicodeParagraph(document.fillColor(accentColor).fontSize(20), receipt.bankName, 'bold', { x: left, y: pageMarginPoints }, { width });
  document.moveDown(0.4);
  document.fillColor(textColor).font('Helvetica-Bold').fontSize(14).text(receiptHeading, { width, characterSpacing: 1 });
  if (receipt.sandbox) document.fillColor(mutedColor).font('Helvetica').fontSize(10).text('Sandbox: no real money', { width });
  const ruleY = document.y + 8;
  document
    .moveTo(left, ruleY)
    .lineTo(left + width, ruleY)
    .lineWidth(1)
    .strokeColor(accentColor)
    .stroke();
  document.y = ruleY + 16;

  for (const [label, value] of receipt.facts) {
    const top = document.y;
    document.fillColor(mutedColor).font('Helvetica').fontSize(11).text(label, left, top, { width: labelWidthPoints });
    unicodeParagraph(document.fillColor(textColor).fontSize(11), value, 'bold', { x: left + labelWidthPoints, y: top }, { width: width - labelWidthPoints });
    document.y = Math.max(document.y, top + 14) + 6;
  }

  const qrTop = document.y + 16;
  document.image(qrPng, left, qrTop, { width: qrSizePoints, height: qrSizePoints });
  const noteLeft = left + qrSizePoints + 16;
  const noteWidth = width - qrSizePoints - 16;
  document
    .fillColor(textColor)
    .font('Helvetica-Bold')
    .fontSize(11)
    .text('Is this receipt genuine?', noteLeft, qrTop + 8, { width: noteWidth });
  unicodeParagraph(
    document.fillColor(textColor).fontSize(10),
    `Scan the code or open this address to see what ${receipt.bankName} recorded under reference ${receipt.reference}:`,
    'regular',
    undefined,
    { width: noteWidth },
  );
  document.moveDown(0.3);
  document.fillColor(accentColor).text(receipt.verifyUrl, { width: noteWidth, link: receipt.verifyUrl });
  unicodeParagraph(
    document.fillColor(mutedColor).fontSize(9),
    `Issued ${receipt.issuedAt} by ${receipt.bankName}.`,
    'regular',
    { x: left, y: qrTop + qrSizePoints + 24 },
    {
      width,
    },
  );
  document.end();
  return finished;
}
