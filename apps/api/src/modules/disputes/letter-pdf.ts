import PDFDocument from 'pdfkit';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { unicodeParagraph } from '../../platform/pdf-fonts.ts';
import { standardFontText } from '../statements/service.ts';
import type { LetterFacts, LetterKind } from './letters.ts';

/**
 * A dispute's letters as PDFs (Regulation E, 12 CFR 1005.11): each drawn from the facts stored when
 * the letter was written (letters.ts), so the same letter reads the same on every download. Text is
 * printed as the statements and loan schedules print theirs (platform/pdf-fonts.ts): Helvetica when
 * it can, embedded Noto subsets for a name or an explanation in another script.
 */

export interface LetterContent {
  title: string;
  /** Label and value, in the order printed: what the letter is about. */
  about: readonly (readonly [string, string])[];
  /** The letter itself, a paragraph each. */
  paragraphs: readonly string[];
}

const longDay = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** "December 14, 2026", from a bank date (YYYY-MM-DD). */
export function letterDay(day: string): string {
  return longDay.format(new Date(`${day}T00:00:00Z`));
}

function money(cents: string): string {
  const value = BigInt(cents);
  return formatMoney(value < 0n ? -value : value);
}

function required<T>(value: T | undefined, kind: LetterKind, name: string): T {
  if (value === undefined) throw new Error(`a ${kind} letter needs ${name}`);
  return value;
}

const askForDocuments =
  'You may ask us for copies of the documents we relied on to reach our decision. Ask us by secure message in online banking and we will send them to you, free of charge.';
const questions = 'If you have a question about this letter, write to us in your dispute in online banking.';

function acknowledgement(facts: LetterFacts): string[] {
  return [
    `We received your notice of an error on ${letterDay(facts.receivedOn)}. Thank you for telling us.`,
    'What happens next: we will investigate the transaction above and tell you what we find.',
    `If we have not finished our investigation by ${letterDay(facts.provisionalCreditBy)}, we will credit the amount in dispute to your account by that date, provisionally, so that you have the use of the money while we finish.`,
    `We will finish our investigation by ${letterDay(facts.resolveBy)}. We will tell you the result in writing within 3 business days of finishing.`,
    'You can follow your dispute, send us more information and read our letters in online banking.',
  ];
}

function provisionalCredit(facts: LetterFacts): string[] {
  const amount = money(required(facts.provisionalCreditCents, 'provisional_credit', 'provisionalCreditCents'));
  return [
    `On ${letterDay(facts.date)}, we credited ${amount} to your account.`,
    'This credit is provisional: we have not finished our investigation yet. You may use the money while we do.',
    `We will finish our investigation by ${letterDay(facts.resolveBy)} and tell you the result in writing.`,
    'If we find that there was no error, we will take this credit back. Before we do, we will tell you the date and the amount, at least 5 business days in advance.',
  ];
}

function result(facts: LetterFacts): string[] {
  const decision = required(facts.decision, 'result', 'decision');
  const explanation = required(facts.explanation, 'result', 'explanation');
  if (decision === 'customer') {
    const amount = money(facts.provisionalCreditCents ?? facts.transaction.amountCents);
    return [
      'We have finished our investigation and found that there was an error. We have decided in your favour.',
      `Our explanation: ${explanation}`,
      `The credit of ${amount} to your account is final: we will not take it back.`,
    ];
  }
  const paragraphs = ['We have finished our investigation and found no error.', `Our explanation: ${explanation}`, askForDocuments];
  if (facts.provisionalCreditCents !== undefined && BigInt(facts.provisionalCreditCents) !== 0n) {
    const reversalOn = letterDay(required(facts.reversalOn, 'result', 'reversalOn'));
    paragraphs.push(
      `While we investigated, we credited ${money(facts.provisionalCreditCents)} to your account provisionally. We will take this amount back from your account on ${reversalOn}.`,
      `Until ${reversalOn}, we will honour payments from your account that would overdraw it because of this credit, up to ${money(facts.provisionalCreditCents)}, and we will not charge you for the overdraft.`,
    );
  }
  return paragraphs;
}

function informationRequest(facts: LetterFacts): string[] {
  const question = required(facts.explanation, 'information_request', 'explanation');
  return [
    'To finish our investigation, we need more information from you. Our question:',
    question,
    'How to answer: sign in to online banking, open your dispute and send us your answer there. We will never ask you for a password or a code.',
    `We will still finish our investigation by ${letterDay(facts.resolveBy)}.`,
  ];
}

function reversalNotice(facts: LetterFacts): string[] {
  const amount = money(required(facts.provisionalCreditCents, 'reversal_notice', 'provisionalCreditCents'));
  return [
    `On ${letterDay(facts.reversalOn ?? facts.date)}, we took back the provisional credit of ${amount} from your account, as we told you in our letter with the result of your dispute.`,
    'We took it back because our investigation found no error.',
    askForDocuments,
  ];
}

const letters: Record<LetterKind, { title: string; body: (facts: LetterFacts) => string[] }> = {
  acknowledgement: { title: 'We received your dispute', body: acknowledgement },
  provisional_credit: { title: 'Provisional credit to your account', body: provisionalCredit },
  result: { title: 'The result of your dispute', body: result },
  information_request: { title: 'We need more information about your dispute', body: informationRequest },
  reversal_notice: { title: 'We have taken back the provisional credit', body: reversalNotice },
};

/** What a letter says: the same facts always give the same words. */
export function letterContent(kind: LetterKind, facts: LetterFacts): LetterContent {
  const letter = letters[kind];
  return {
    title: letter.title,
    about: [
      ['Transaction', facts.transaction.description],
      ['Amount', money(facts.transaction.amountCents)],
      ['Transaction date', letterDay(facts.transaction.date)],
      ['What you told us', facts.reason],
      ['Dispute received', letterDay(facts.receivedOn)],
    ],
    paragraphs: [`Dear ${facts.customerName},`, ...letter.body(facts), questions, 'Yours sincerely,', facts.bankName],
  };
}

const accentColor = '#1a4fd8';
const textColor = '#1f2937';
const mutedColor = '#6b7280';
const margin = 56;
const labelWidth = 130;

/** The letter as a PDF of Letter pages, built in memory (a few kilobytes); its creation date is the letter's date. */
export async function letterPdf(kind: LetterKind, facts: LetterFacts): Promise<Buffer> {
  const content = letterContent(kind, facts);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin,
    info: { Title: content.title, Author: standardFontText(facts.bankName), CreationDate: new Date(`${facts.date}T12:00:00Z`) },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  const width = doc.page.width - margin * 2;

  unicodeParagraph(doc.fillColor(accentColor).fontSize(20), facts.bankName, 'bold', { x: margin, y: margin }, { width });
  doc.moveDown(0.3);
  doc.fillColor(mutedColor).font('Helvetica').fontSize(10).text(letterDay(facts.date), margin, doc.y, { width });
  doc.moveDown(0.8);
  unicodeParagraph(doc.fillColor(textColor).fontSize(11), facts.customerName, 'regular', { x: margin, y: doc.y }, { width });
  doc.moveDown(1);
  doc.fillColor(textColor).font('Helvetica-Bold').fontSize(14).text(content.title, margin, doc.y, { width });
  const ruleY = doc.y + 6;
  doc
    .moveTo(margin, ruleY)
    .lineTo(margin + width, ruleY)
    .lineWidth(1)
    .strokeColor(accentColor)
    .stroke();
  doc.y = ruleY + 12;

  for (const [label, value] of content.about) {
    const top = doc.y;
    doc.fillColor(mutedColor).font('Helvetica').fontSize(10).text(label, margin, top, { width: labelWidth });
    unicodeParagraph(doc.fillColor(textColor).fontSize(10), value, 'bold', { x: margin + labelWidth, y: top }, { width: width - labelWidth });
    doc.y = Math.max(doc.y, top + 12) + 4;
  }
  doc.y += 12;

  for (const paragraph of content.paragraphs) {
    unicodeParagraph(doc.fillColor(textColor).fontSize(11), paragraph, 'regular', { x: margin, y: doc.y }, { width, lineGap: 2 });
    doc.y += 8;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
