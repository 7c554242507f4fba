import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Statement, StatementLine } from './service.ts';

/** docs/product.md section 5; hledger/strongroom.csv.rules reads the columns in this order. */
export const csvHeader = 'date,transferId,description,category,amount,balance';
const lineBreak = '\r\n';

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such text
 * gets a leading apostrophe, which spreadsheets show as text and accounting tools keep as a character.
 */
const formulaStart = /^[=+\-@\t\r]/;

export function guardFormula(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(line: StatementLine): string {
  return [
    line.date,
    line.transferId,
    csvField(guardFormula(line.description)),
    csvField(guardFormula(line.category)),
    formatMoney(line.amountCents, 'decimal'),
    formatMoney(line.balanceCents, 'decimal'),
  ].join(',');
}

/** The header, then one line per transaction, oldest first, a batch per chunk. */
export async function* statementCsv(statement: Statement): AsyncGenerator<string, void, undefined> {
  yield `${csvHeader}${lineBreak}`;
  for await (const lines of statement.batches) {
    yield lines.map((line) => `${csvLine(line)}${lineBreak}`).join('');
  }
}
