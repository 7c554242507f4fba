/**
 * The NACHA file format (the ACH rail's fixed-width text): 94-character records, a file header
 * (1), batches of a batch header (5), entries (6) with their addenda (7) and a batch control (8),
 * a file control (9), and filler records of nines up to a multiple of ten records (one block).
 * Pure functions: the writer for the files the bank sends, the reader for the returns it gets.
 * Field positions follow the NACHA Operating Rules, Appendix Three; the tests read what the writer
 * makes with an independent parser from npm.
 */
export const recordLength = 94;
const blockingFactor = 10;
/** Most entries in one file the bank writes: a named bound, far above a day's work here. */
export const maxEntriesPerFile = 10_000;

/** 22/32 credit a checking/savings account; 27/37 debit it. */
export type EntryTransactionCode = 22 | 27 | 32 | 37;

export interface NachaEntry {
  transactionCode: EntryTransactionCode;
  /** The receiving bank's 9-digit ABA routing number. */
  routingNumber: string;
  accountNumber: string;
  amountCents: bigint;
  /** The bank's reference for the entry (15 characters at most). */
  individualId: string;
  individualName: string;
  traceNumber: string;
}

export interface NachaBatch {
  /** 220 credits only, 225 debits only, 200 both. */
  serviceClassCode: 200 | 220 | 225;
  companyName: string;
  companyId: string;
  /** What the receiver's statement shows, such as ACCTVERIFY for micro-deposits (NACHA requires that word). */
  entryDescription: string;
  /** YYMMDD */
  effectiveDate: string;
  /** The first 8 digits of the bank's routing number. */
  originatingDfi: string;
  batchNumber: number;
  entries: readonly NachaEntry[];
}

export interface NachaFile {
  /** The ACH operator's routing number. */
  immediateDestination: string;
  immediateDestinationName: string;
  /** The bank's own routing number. */
  immediateOrigin: string;
  immediateOriginName: string;
  createdAt: Date;
  fileIdModifier: string;
  batches: readonly NachaBatch[];
}

export class NachaFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NachaFormatError';
  }
}

/** Upper-case printable ASCII: accents dropped, anything else a space. */
function alphanumeric(value: string, length: number): string {
  const ascii = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^\x20-\x7E]/g, ' ');
  return ascii.slice(0, length).padEnd(length, ' ');
}

function numeric(value: bigint | number | string, length: number): string {
  const digits = value.toString();
  if (!/^\d+$/.test(digits)) throw new NachaFormatError(`not a number: ${digits}`);
  if (digits.length > length) throw new NachaFormatError(`${digits} does not fit in ${length} digits`);
  return digits.padStart(length, '0');
}

function record(...fields: string[]): string {
  const line = fields.join('');
  if (line.length !== recordLength) throw new Error(`a NACHA record is ${recordLength} characters, this one ${line.length}`);
  return line;
}

/** The entry hash: the sum of the receiving banks' 8-digit routing numbers, its last ten digits. */
function entryHash(entries: readonly NachaEntry[]): string {
  const sum = entries.reduce((total, entry) => total + BigInt(entry.routingNumber.slice(0, 8)), 0n);
  return numeric(sum % 10_000_000_000n, 10);
}

function isDebit(code: EntryTransactionCode): boolean {
  return code === 27 || code === 37;
}

function totals(entries: readonly NachaEntry[]): { debitCents: bigint; creditCents: bigint } {
  let debitCents = 0n;
  let creditCents = 0n;
  for (const entry of entries) {
    if (isDebit(entry.transactionCode)) debitCents += entry.amountCents;
    else creditCents += entry.amountCents;
  }
  return { debitCents, creditCents };
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0');
}

function fileHeader(file: NachaFile): string {
  const at = file.createdAt;
  const date = `${twoDigits(at.getUTCFullYear() % 100)}${twoDigits(at.getUTCMonth() + 1)}${twoDigits(at.getUTCDate())}`;
  const time = `${twoDigits(at.getUTCHours())}${twoDigits(at.getUTCMinutes())}`;
  if (!/^[A-Z0-9]$/.test(file.fileIdModifier)) throw new NachaFormatError(`file id modifier must be A-Z or 0-9: ${file.fileIdModifier}`);
  return record(
    '1',
    '01',
    ` ${numeric(file.immediateDestination, 9)}`,
    ` ${numeric(file.immediateOrigin, 9)}`,
    date,
    time,
    file.fileIdModifier,
    '094',
    numeric(blockingFactor, 2),
    '1',
    alphanumeric(file.immediateDestinationName, 23),
    alphanumeric(file.immediateOriginName, 23),
    alphanumeric('', 8),
  );
}

function entryRecord(entry: NachaEntry): string {
  if (!/^\d{9}$/.test(entry.routingNumber)) throw new NachaFormatError(`routing number must be 9 digits: ${entry.routingNumber}`);
  if (entry.amountCents <= 0n) throw new NachaFormatError('an entry is for more than zero cents');
  return record(
    '6',
    numeric(entry.transactionCode, 2),
    entry.routingNumber,
    alphanumeric(entry.accountNumber, 17),
    numeric(entry.amountCents, 10),
    alphanumeric(entry.individualId, 15),
    alphanumeric(entry.individualName, 22),
    '  ',
    '0',
    numeric(entry.traceNumber, 15),
  );
}

function batchRecords(batch: NachaBatch): string[] {
  const header = record(
    '5',
    numeric(batch.serviceClassCode, 3),
    alphanumeric(batch.companyName, 16),
    alphanumeric('', 20),
    alphanumeric(batch.companyId, 10),
    'PPD',
    alphanumeric(batch.entryDescription, 10),
    alphanumeric('', 6),
    numeric(batch.effectiveDate, 6),
    '   ',
    '1',
    numeric(batch.originatingDfi, 8),
    numeric(batch.batchNumber, 7),
  );
  const sums = totals(batch.entries);
  const control = record(
    '8',
    numeric(batch.serviceClassCode, 3),
    numeric(batch.entries.length, 6),
    entryHash(batch.entries),
    numeric(sums.debitCents, 12),
    numeric(sums.creditCents, 12),
    alphanumeric(batch.companyId, 10),
    alphanumeric('', 19),
    alphanumeric('', 6),
    numeric(batch.originatingDfi, 8),
    numeric(batch.batchNumber, 7),
  );
  return [header, ...batch.entries.map(entryRecord), control];
}

/** The whole file, lines ending in CR LF as most ACH operators expect. */
export function writeNachaFile(file: NachaFile): string {
  const batches = file.batches.filter((batch) => batch.entries.length > 0);
  const entries = batches.flatMap((batch) => batch.entries);
  if (entries.length === 0) throw new NachaFormatError('a file holds at least one entry');
  if (entries.length > maxEntriesPerFile) throw new NachaFormatError(`a file holds at most ${maxEntriesPerFile} entries`);
  const lines = [fileHeader(file), ...batches.flatMap(batchRecords)];
  const sums = totals(entries);
  const recordCount = lines.length + 1;
  const blockCount = Math.ceil(recordCount / blockingFactor);
  lines.push(
    record(
      '9',
      numeric(batches.length, 6),
      numeric(blockCount, 6),
      numeric(entries.length, 8),
      entryHash(entries),
      numeric(sums.debitCents, 12),
      numeric(sums.creditCents, 12),
      alphanumeric('', 39),
    ),
  );
  while (lines.length % blockingFactor !== 0) lines.push('9'.repeat(recordLength));
  return `${lines.join('\r\n')}\r\n`;
}

/** One returned entry: the trace number of the bank's own entry it answers, and why. */
export interface NachaReturn {
  originalTraceNumber: string;
  returnCode: string;
  amountCents: bigint;
  /** The line of the addenda record, for messages. */
  line: number;
}

/** Transaction codes of return entries: 21/26 checking, 31/36 savings (credit/debit returned). */
const returnTransactionCodes = new Set(['21', '26', '31', '36']);

/**
 * The returned entries of a returns file from the ACH operator. The whole file is checked first
 * (record lengths, record order, every batch's and the file's counts and totals), so a damaged
 * file is refused before anything is applied.
 */
export function parseNachaReturns(text: string): NachaReturn[] {
  const lines = text.split(/\r?\n/).map((line, index) => ({ text: line.replace(/\s+$/, '').padEnd(recordLength, ' '), raw: line, number: index + 1 }));
  const records = lines.filter((line) => line.raw.trim().length > 0 && !/^9{94}$/.test(line.raw.trim()));
  const fail = (line: number, why: string): never => {
    throw new NachaFormatError(`line ${line}: ${why}`);
  };
  for (const line of records) if (line.raw.replace(/\s+$/, '').length > recordLength) fail(line.number, `longer than ${recordLength} characters`);
  if (records[0]?.text[0] !== '1') fail(records[0]?.number ?? 1, 'the file does not start with a file header (1)');

  const returns: NachaReturn[] = [];
  let batchCount = 0;
  let fileEntries = 0;
  let fileDebitCents = 0n;
  let fileCreditCents = 0n;
  let batch: { entries: number; debitCents: bigint; creditCents: bigint } | null = null;
  let lastEntry: { amountCents: bigint; code: string; line: number; traceNumber: string } | null = null;
  let sawControl = false;

  for (const line of records.slice(1)) {
    const type = line.text[0];
    if (sawControl) fail(line.number, 'records after the file control (9)');
    if (type === '5') {
      if (batch) fail(line.number, 'a batch header inside a batch');
      batch = { entries: 0, debitCents: 0n, creditCents: 0n };
      batchCount += 1;
    } else if (type === '6') {
      if (!batch) fail(line.number, 'an entry outside a batch');
      const code = line.text.slice(1, 3);
      const amountText = line.text.slice(29, 39);
      if (!/^\d{10}$/.test(amountText)) fail(line.number, 'the amount is not 10 digits');
      const amountCents = BigInt(amountText);
      const traceNumber = line.text.slice(79, 94);
      if (!/^\d{15}$/.test(traceNumber)) fail(line.number, 'the trace number is not 15 digits');
      lastEntry = { amountCents, code, line: line.number, traceNumber };
      if (batch) {
        batch.entries += 1;
        if (code === '26' || code === '36' || code === '27' || code === '37') batch.debitCents += amountCents;
        else batch.creditCents += amountCents;
      }
    } else if (type === '7') {
      if (!batch || !lastEntry) fail(line.number, 'an addenda without its entry');
      if (batch) batch.entries += 1;
      if (line.text.slice(1, 3) === '99' && lastEntry && returnTransactionCodes.has(lastEntry.code)) {
        const returnCode = line.text.slice(3, 6);
        const originalTraceNumber = line.text.slice(6, 21);
        if (!/^R\d{2}$/.test(returnCode)) fail(line.number, `not a return reason code: ${returnCode}`);
        if (!/^\d{15}$/.test(originalTraceNumber)) fail(line.number, 'the original trace number is not 15 digits');
        returns.push({ originalTraceNumber, returnCode, amountCents: lastEntry.amountCents, line: line.number });
      }
    } else if (type === '8') {
      if (!batch) fail(line.number, 'a batch control without its batch');
      if (batch) {
        if (Number(line.text.slice(4, 10)) !== batch.entries) fail(line.number, 'the batch entry count does not match its entries');
        if (BigInt(line.text.slice(20, 32)) !== batch.debitCents || BigInt(line.text.slice(32, 44)) !== batch.creditCents)
          fail(line.number, 'the batch totals do not match its entries');
        fileEntries += batch.entries;
        fileDebitCents += batch.debitCents;
        fileCreditCents += batch.creditCents;
      }
      batch = null;
      lastEntry = null;
    } else if (type === '9') {
      if (batch) fail(line.number, 'the file control inside a batch');
      if (Number(line.text.slice(1, 7)) !== batchCount) fail(line.number, 'the file batch count does not match');
      if (Number(line.text.slice(13, 21)) !== fileEntries) fail(line.number, 'the file entry count does not match');
      if (BigInt(line.text.slice(31, 43)) !== fileDebitCents || BigInt(line.text.slice(43, 55)) !== fileCreditCents)
        fail(line.number, 'the file totals do not match');
      sawControl = true;
    } else {
      fail(line.number, `unknown record type ${JSON.stringify(type)}`);
    }
  }
  if (!sawControl) fail(records.at(-1)?.number ?? 1, 'the file has no file control (9)');
  return returns;
}
