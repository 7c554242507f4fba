import { randomUUID } from 'node:crypto';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Statement, StatementLine } from './service.ts';

/**
 * OFX 2.2 (XML) as banks answer a statement download. What LibOFX (GnuCash's parser, Debian's
 * `ofxdump`) needs, measured: the signon block, STMTTRNRS with TRNUID and STATUS, STMTRS with
 * CURDEF, BANKACCTFROM and LEDGERBAL, each STMTTRN with TRNTYPE, DTPOSTED, TRNAMT and FITID.
 * Text stays UTF-8 as it is: LibOFX reads character references (&#233;) as parse errors.
 */
const header =
  '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>\n';
/** OFX limits NAME to 32 characters and MEMO to 255. */
const nameMaxLength = 32;
const memoMaxLength = 255;

/** What XML 1.0 cannot carry: control characters other than tab, line feed and carriage return. */
// eslint-disable-next-line no-control-regex -- matching the control characters is the point
const notXmlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes markup and drops what XML 1.0 cannot carry (control characters). */
export function ofxText(text: string, maxLength: number): string {
  const clean = [...text.replace(notXmlCharacters, '').replace(/\s+/g, ' ').trim()].slice(0, maxLength).join('');
  return clean.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `20250131183000.000[0:GMT]`: OFX's datetime, in UTC. */
export function ofxUtcDate(date: Date): string {
  const stamp = `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}.${pad(date.getUTCMilliseconds(), 3)}`;
  return `${stamp}[0:GMT]`;
}

/** `20250131133000.000[-5]`: the bank's local time and its offset in hours (LibOFX reads 5.5 as 5:30). */
export function ofxLocalDate(localStamp: string, utcOffsetSeconds: number): string {
  const hours = utcOffsetSeconds / 3_600;
  const offset = Number.isInteger(hours) ? String(hours) : hours.toFixed(2).replace(/0$/, '');
  return `${localStamp}[${hours >= 0 ? '+' : ''}${offset}]`;
}

function transaction(line: StatementLine): string {
  return (
    `<STMTTRN><TRNTYPE>${line.amountCents < 0n ? 'DEBIT' : 'CREDIT'}</TRNTYPE>` +
    `<DTPOSTED>${ofxLocalDate(line.localStamp, line.utcOffsetSeconds)}</DTPOSTED>` +
    `<TRNAMT>${formatMoney(line.amountCents, 'decimal')}</TRNAMT><FITID>${line.transferId}</FITID>` +
    // NAME is the payee's field: who the line was with, where someone was; the reason goes in MEMO.
    `<NAME>${ofxText(line.party ?? line.description, nameMaxLength) || 'Transaction'}</NAME>` +
    `<MEMO>${ofxText(`${line.description} (${line.category})`, memoMaxLength)}</MEMO></STMTTRN>\n`
  );
}

const okStatus = '<STATUS><CODE>0</CODE><SEVERITY>INFO</SEVERITY></STATUS>';

export async function* statementOfx(statement: Statement): AsyncGenerator<string, void, undefined> {
  yield (
    `${header}<OFX>\n` +
    `<SIGNONMSGSRSV1><SONRS>${okStatus}<DTSERVER>${ofxUtcDate(statement.generatedAt)}</DTSERVER><LANGUAGE>ENG</LANGUAGE></SONRS></SIGNONMSGSRSV1>\n` +
    `<BANKMSGSRSV1><STMTTRNRS><TRNUID>${randomUUID()}</TRNUID>${okStatus}\n` +
    `<STMTRS><CURDEF>USD</CURDEF>` +
    `<BANKACCTFROM><BANKID>${businessConstants.bankRoutingNumber}</BANKID><ACCTID>${statement.account.number}</ACCTID>` +
    `<ACCTTYPE>${statement.account.type === 'savings' ? 'SAVINGS' : 'CHECKING'}</ACCTTYPE></BANKACCTFROM>\n` +
    // DTEND is where the next download should start so as to miss nothing: the end of what this one read.
    `<BANKTRANLIST><DTSTART>${ofxUtcDate(statement.period.startsAt)}</DTSTART><DTEND>${ofxUtcDate(statement.asOf)}</DTEND>\n`
  );
  let next = await statement.batches.next();
  while (!next.done) {
    yield next.value.map(transaction).join('');
    next = await statement.batches.next();
  }
  const totals = next.value;
  yield (
    `</BANKTRANLIST>\n` +
    `<LEDGERBAL><BALAMT>${formatMoney(totals.closingBalanceCents, 'decimal')}</BALAMT><DTASOF>${ofxUtcDate(statement.asOf)}</DTASOF></LEDGERBAL>\n` +
    `</STMTRS></STMTTRNRS></BANKMSGSRSV1>\n</OFX>\n`
  );
}
