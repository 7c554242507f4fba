/**
 * The records of a BAI2 file (docs/books.md, "Reconciliation"): the file's types, and the reading of
 * its physical lines into records and of each record's fields. bai2.ts puts the records together,
 * checks the trailers' control totals, and writes files.
 */

export interface Bai2Detail {
  typeCode: string;
  amountCents: bigint;
  /** Z, 0, 1, 2, V, S or D (their extra fields, availability only, are read and not kept), or '' when absent. */
  fundsType: string;
  bankReference: string | null;
  customerReference: string | null;
  text: string | null;
}
export interface Bai2Account {
  accountNumber: string;
  currency: string;
  /** Status and summary amounts (010 opening ledger, 015 closing ledger, 100 total credits, 400 total debits, ...); item counts are not kept. */
  summaries: { typeCode: string; amountCents: bigint | null }[];
  details: Bai2Detail[];
}
export interface Bai2Group {
  originator: string;
  ultimateReceiver: string;
  /** YYYY-MM-DD. */
  asOfDate: string;
  currency: string;
  accounts: Bai2Account[];
}
export interface Bai2File {
  sender: string;
  receiver: string;
  /** date YYYY-MM-DD, time HHMM (as the sender wrote it). */
  createdAt: { date: string; time: string };
  fileId: string;
  groups: Bai2Group[];
}

export class Bai2ParseError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'Bai2ParseError';
  }
}

/** Limits: a settlement bank's daily statement is far smaller than these. */
export const bai2Limits = { maxLines: 100_000, maxFieldChars: 1_000 } as const;

/** A group currency left blank is the originator's country's: US dollars for a US settlement bank. */
export const defaultCurrency = 'USD';

/** Detail type codes 100-399 are credits (money into the account), 400-699 debits (money out); the rest (890, ...) move no money. */
export function directionOfTypeCode(typeCode: string): 'credit' | 'debit' | null {
  const code = Number(typeCode);
  if (code >= 100 && code <= 399) return 'credit';
  if (code >= 400 && code <= 699) return 'debit';
  return null;
}

export interface LogicalRecord {
  code: string;
  /** The record's fields after its code, its 88 continuations joined on. */
  body: string;
  line: number;
  physicalRecords: number;
}

/**
 * Physical lines into logical records. A continuation (88) continues the record before it: after a
 * record that ended with "/" it starts a new field; otherwise it continues a detail's text (joined
 * with a space, as the specification's own example reads "AMALGAMATED CORP. LOCKBOX" then
 * "DEPOSIT-MISC. RECEIVABLES"). Trailing blanks are padding of fixed-length records.
 */
export function logicalRecords(text: string): LogicalRecord[] {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > bai2Limits.maxLines) throw new Bai2ParseError(bai2Limits.maxLines, `the file has more than ${bai2Limits.maxLines} lines`);
  const records: LogicalRecord[] = [];
  lines.forEach((raw, index) => {
    const content = raw.trimEnd();
    const line = index + 1;
    if (content === '') return;
    const match = /^(\d{2})(?:,|\/$)/.exec(content);
    if (!match?.[1]) throw new Bai2ParseError(line, 'a record starts with its two-digit record code and a comma');
    const code = match[1];
    const body = content.slice(3);
    if (code !== '88') {
      records.push({ code, body, line, physicalRecords: 1 });
      return;
    }
    const previous = records.at(-1);
    if (!previous) throw new Bai2ParseError(line, 'a continuation record (88) must follow the record it continues');
    previous.body = joinContinuation(previous, body);
    previous.physicalRecords += 1;
  });
  return records;
}

/**
 * A record ending in "/" is continued with its next field. A detail (16) that ended in ",/" stopped
 * at an empty field the continuation now fills (its text, usually); one that did not end in "/"
 * was cut inside its text, which goes on after a space.
 */
function joinContinuation(previous: LogicalRecord, body: string): string {
  if (previous.code === '16') {
    if (previous.body.endsWith(',/')) return `${previous.body.slice(0, -1)}${body}`;
    if (!previous.body.endsWith('/')) return `${previous.body} ${body}`;
  }
  return `${previous.body.endsWith('/') ? previous.body.slice(0, -1) : previous.body},${body}`;
}

/** Reads a record's fields one by one; a detail's text is whatever is left. */
class FieldReader {
  #position = 0;
  constructor(
    private readonly body: string,
    private readonly line: number,
  ) {}

  get exhausted(): boolean {
    return this.#position >= this.body.length;
  }

  next(): string {
    if (this.exhausted) return '';
    const comma = this.body.indexOf(',', this.#position);
    const end = comma === -1 ? this.body.length : comma;
    let field = this.body.slice(this.#position, end);
    this.#position = comma === -1 ? this.body.length : comma + 1;
    if (comma === -1 && field.endsWith('/')) field = field.slice(0, -1);
    if (field.length > bai2Limits.maxFieldChars) throw new Bai2ParseError(this.line, 'a field is longer than a BAI2 field can be');
    return field.trim();
  }

  /** The rest of the record: a detail's text, which may hold commas; a final "/" some banks add is not part of it. */
  rest(): string {
    let rest = this.exhausted ? '' : this.body.slice(this.#position);
    this.#position = this.body.length;
    rest = rest.trimEnd();
    if (rest.endsWith('/')) rest = rest.slice(0, -1).trimEnd();
    if (rest.length > bai2Limits.maxFieldChars * 10) throw new Bai2ParseError(this.line, 'the text of a detail is too long');
    return rest;
  }
}

export function signedAmount(field: string, line: number, what: string): bigint {
  if (!/^[+-]?\d{1,18}$/.test(field)) throw new Bai2ParseError(line, `${what} must be a whole number of cents, not "${field}"`);
  return BigInt(field);
}

export function isoDate(field: string, line: number, what: string): string {
  const match = /^(\d{2})(\d{2})(\d{2})$/.exec(field);
  if (!match) throw new Bai2ParseError(line, `${what} must be a date written YYMMDD, not "${field}"`);
  // Two-digit years: the specification dates from 1987; files name this century's years.
  const year = Number(match[1]) < 70 ? 2000 + Number(match[1]) : 1900 + Number(match[1]);
  const date = `${year}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date)
    throw new Bai2ParseError(line, `${what} is not a day of the calendar: "${field}"`);
  return date;
}

/** Reads a funds type and the fields that follow it (S: three availability amounts; V: value date and time; D: a count, then that many day/amount pairs). */
function readFundsType(reader: FieldReader, line: number): string {
  const fundsType = reader.next().toUpperCase();
  switch (fundsType) {
    case '':
    case 'Z':
    case '0':
    case '1':
    case '2':
      return fundsType;
    case 'S':
      for (let index = 0; index < 3; index += 1) {
        const amount = reader.next();
        if (amount !== '') signedAmount(amount, line, 'a distributed availability amount');
      }
      return fundsType;
    case 'V': {
      const valueDate = reader.next();
      if (valueDate !== '') isoDate(valueDate, line, 'the value date');
      const valueTime = reader.next();
      if (valueTime !== '' && !/^\d{4}$/.test(valueTime)) throw new Bai2ParseError(line, `the value time must be HHMM, not "${valueTime}"`);
      return fundsType;
    }
    case 'D': {
      const count = reader.next();
      if (!/^\d{1,3}$/.test(count)) throw new Bai2ParseError(line, `a distributed availability (D) needs its number of distributions, not "${count}"`);
      for (let index = 0; index < Number(count); index += 1) {
        const days = reader.next();
        if (!/^\d{1,3}$/.test(days)) throw new Bai2ParseError(line, `an availability distribution needs its days, not "${days}"`);
        signedAmount(reader.next(), line, 'an availability distribution amount');
      }
      return fundsType;
    }
    default:
      throw new Bai2ParseError(line, `unknown funds type "${fundsType}"`);
  }
}

export function plainFields(record: LogicalRecord): string[] {
  const body = record.body.endsWith('/') ? record.body.slice(0, -1) : record.body;
  const fields = body.split(',').map((field) => field.trim());
  if (fields.some((field) => field.length > bai2Limits.maxFieldChars)) throw new Bai2ParseError(record.line, 'a field is longer than a BAI2 field can be');
  return fields;
}

export function countField(field: string | undefined, line: number, what: string): number {
  if (field === undefined || !/^\d{1,9}$/.test(field)) throw new Bai2ParseError(line, `${what} must be a number, not "${field ?? ''}"`);
  return Number(field);
}

export function parseAccount(record: LogicalRecord, groupCurrency: string): { account: Bai2Account; totalCents: bigint } {
  const reader = new FieldReader(record.body.endsWith('/') ? record.body.slice(0, -1) : record.body, record.line);
  const accountNumber = reader.next();
  if (accountNumber === '') throw new Bai2ParseError(record.line, 'the account identifier (03) has no account number');
  const currency = reader.next().toUpperCase() || groupCurrency;
  const summaries: Bai2Account['summaries'] = [];
  let totalCents = 0n;
  while (!reader.exhausted) {
    const typeCode = reader.next();
    const amount = reader.next();
    const itemCount = reader.next();
    readFundsType(reader, record.line);
    if (typeCode === '' && amount === '' && itemCount === '') continue;
    if (!/^\d{3}$/.test(typeCode)) throw new Bai2ParseError(record.line, `a summary type code has three digits, not "${typeCode}"`);
    if (itemCount !== '' && !/^\d{1,9}$/.test(itemCount)) throw new Bai2ParseError(record.line, `an item count must be a number, not "${itemCount}"`);
    const amountCents = amount === '' ? null : signedAmount(amount, record.line, `the amount of type code ${typeCode}`);
    totalCents += amountCents ?? 0n;
    summaries.push({ typeCode, amountCents });
  }
  return { account: { accountNumber, currency, summaries, details: [] }, totalCents };
}

export function parseDetail(record: LogicalRecord): Bai2Detail {
  const reader = new FieldReader(record.body, record.line);
  const typeCode = reader.next();
  if (!/^\d{3}$/.test(typeCode)) throw new Bai2ParseError(record.line, `a detail's type code has three digits, not "${typeCode}"`);
  const amount = reader.next();
  if (amount !== '' && !/^\d{1,18}$/.test(amount)) throw new Bai2ParseError(record.line, `a detail's amount is unsigned whole cents, not "${amount}"`);
  const fundsType = readFundsType(reader, record.line);
  const bankReference = reader.next();
  const customerReference = reader.next();
  const text = reader.rest();
  return {
    typeCode,
    amountCents: amount === '' ? 0n : BigInt(amount),
    fundsType,
    bankReference: bankReference || null,
    customerReference: customerReference || null,
    text: text || null,
  };
}
