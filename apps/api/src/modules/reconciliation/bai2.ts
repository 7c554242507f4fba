/**
 * BAI2, the Bank Administration Institute's Cash Management Balance Reporting Specifications,
 * version 2: the statement a US settlement bank sends of the bank's own accounts (docs/books.md,
 * "Reconciliation"). Comma-separated records ending in "/", each starting with its two-digit code:
 * 01 file header, 02 group header, 03 account identifier and summaries, 16 transaction detail,
 * 88 continuation of the record before it, 49 account trailer, 98 group trailer, 99 file trailer.
 * The trailers carry control totals (the algebraic sum of every amount in the 03 and 16 records they
 * close) and counts of physical records (88s included), and a file whose totals do not add up is
 * refused, naming the line: a statement that lost or gained a record must never be reconciled.
 */
import {
  Bai2ParseError,
  countField,
  defaultCurrency,
  isoDate,
  logicalRecords,
  parseAccount,
  parseDetail,
  plainFields,
  signedAmount,
  type Bai2Account,
  type Bai2File,
  type Bai2Group,
  type LogicalRecord,
} from './bai2-format.ts';

export { Bai2ParseError, directionOfTypeCode, type Bai2Account, type Bai2Detail, type Bai2File, type Bai2Group } from './bai2-format.ts';

function checkTrailer(line: number, what: string, stated: { totalCents: bigint; records: number }, counted: { totalCents: bigint; records: number }): void {
  if (stated.totalCents !== counted.totalCents)
    throw new Bai2ParseError(line, `the ${what} states a control total of ${stated.totalCents}, but the amounts it closes add up to ${counted.totalCents}`);
  if (stated.records !== counted.records) throw new Bai2ParseError(line, `the ${what} states ${stated.records} records, but it closes ${counted.records}`);
}

interface OpenAccount {
  account: Bai2Account;
  totalCents: bigint;
  records: number;
}
interface OpenGroup {
  group: Bai2Group;
  totalCents: bigint;
  records: number;
  account: OpenAccount | null;
}

/** Puts records together in the order the format allows, summing each level's amounts and records for its trailer. */
class FileAssembler {
  file: Bai2File | null = null;
  closed = false;
  #totalCents = 0n;
  #records = 0;
  #group: OpenGroup | null = null;

  add(record: LogicalRecord): void {
    const { line } = record;
    if (this.closed) throw new Bai2ParseError(line, 'a record follows the file trailer (99)');
    if (!this.file && record.code !== '01') throw new Bai2ParseError(line, 'a BAI2 file starts with its file header (01)');
    switch (record.code) {
      case '01':
        return this.fileHeader(record);
      case '02':
        return this.groupHeader(record);
      case '03':
        return this.account(record);
      case '16':
        return this.detail(record);
      case '49':
        return this.accountTrailer(record);
      case '98':
        return this.groupTrailer(record);
      case '99':
        return this.fileTrailer(record);
      default:
        throw new Bai2ParseError(line, `unknown record code ${record.code}`);
    }
  }

  private fileHeader(record: LogicalRecord): void {
    const { line } = record;
    if (this.file) throw new Bai2ParseError(line, 'a second file header (01)');
    const [sender = '', receiver = '', date = '', time = '', fileId = '', , , version = ''] = plainFields(record);
    if (version !== '2') throw new Bai2ParseError(line, `only BAI2 files (version 2) are read, not version "${version}"`);
    if (sender === '' || fileId === '') throw new Bai2ParseError(line, 'the file header (01) names its sender and the file id');
    if (!/^\d{4}$/.test(time)) throw new Bai2ParseError(line, `the file creation time must be HHMM, not "${time}"`);
    this.file = { sender, receiver, createdAt: { date: isoDate(date, line, 'the file creation date'), time }, fileId, groups: [] };
    this.#records = record.physicalRecords;
  }

  private groupHeader(record: LogicalRecord): void {
    const { line } = record;
    if (this.#group) throw new Bai2ParseError(line, 'a group header (02) inside a group that was not closed (98)');
    const [ultimateReceiver = '', originator = '', status = '', asOfDate = '', , currency = ''] = plainFields(record);
    if (originator === '') throw new Bai2ParseError(line, 'the group header (02) names its originator');
    if (status !== '1') throw new Bai2ParseError(line, `only groups of status 1 (update) are read, not "${status}"`);
    const group: Bai2Group = {
      originator,
      ultimateReceiver,
      asOfDate: isoDate(asOfDate, line, 'the as-of date'),
      currency: currency.toUpperCase() || defaultCurrency,
      accounts: [],
    };
    this.#group = { group, totalCents: 0n, records: record.physicalRecords, account: null };
  }

  private account(record: LogicalRecord): void {
    const group = this.#group;
    if (!group || group.account)
      throw new Bai2ParseError(record.line, 'an account identifier (03) belongs in a group, after the previous account trailer (49)');
    const { account, totalCents } = parseAccount(record, group.group.currency);
    group.account = { account, totalCents, records: record.physicalRecords };
  }

  private detail(record: LogicalRecord): void {
    const open = this.#group?.account;
    if (!open) throw new Bai2ParseError(record.line, 'a transaction detail (16) belongs in an account, after its identifier (03)');
    const detail = parseDetail(record);
    open.account.details.push(detail);
    open.totalCents += detail.amountCents;
    open.records += record.physicalRecords;
  }

  private accountTrailer(record: LogicalRecord): void {
    const { line } = record;
    const group = this.#group;
    const open = group?.account;
    if (!group || !open) throw new Bai2ParseError(line, 'an account trailer (49) without its account identifier (03)');
    const [total = '', count] = plainFields(record);
    open.records += record.physicalRecords;
    checkTrailer(
      line,
      'account trailer (49)',
      { totalCents: signedAmount(total, line, 'the account control total'), records: countField(count, line, 'the number of records') },
      open,
    );
    group.group.accounts.push(open.account);
    group.totalCents += open.totalCents;
    group.records += open.records;
    group.account = null;
  }

  private groupTrailer(record: LogicalRecord): void {
    const { line } = record;
    const group = this.#group;
    if (!group || group.account) throw new Bai2ParseError(line, 'a group trailer (98) must close a group whose accounts are closed (49)');
    const [total = '', accounts, count] = plainFields(record);
    group.records += record.physicalRecords;
    const statedAccounts = countField(accounts, line, 'the number of accounts');
    if (statedAccounts !== group.group.accounts.length)
      throw new Bai2ParseError(line, `the group trailer (98) states ${statedAccounts} accounts, but the group has ${group.group.accounts.length}`);
    checkTrailer(
      line,
      'group trailer (98)',
      { totalCents: signedAmount(total, line, 'the group control total'), records: countField(count, line, 'the number of records') },
      group,
    );
    this.file?.groups.push(group.group);
    this.#totalCents += group.totalCents;
    this.#records += group.records;
    this.#group = null;
  }

  private fileTrailer(record: LogicalRecord): void {
    const { line } = record;
    if (!this.file || this.#group) throw new Bai2ParseError(line, 'the file trailer (99) must follow a closed group (98)');
    const [total = '', groups, count] = plainFields(record);
    this.#records += record.physicalRecords;
    const statedGroups = countField(groups, line, 'the number of groups');
    if (statedGroups !== this.file.groups.length)
      throw new Bai2ParseError(line, `the file trailer (99) states ${statedGroups} groups, but the file has ${this.file.groups.length}`);
    const stated = { totalCents: signedAmount(total, line, 'the file control total'), records: countField(count, line, 'the number of records') };
    checkTrailer(line, 'file trailer (99)', stated, { totalCents: this.#totalCents, records: this.#records });
    this.closed = true;
  }
}

/** Parses a BAI2 file; any defect of structure, field or control total is a Bai2ParseError naming its line. */
export function parseBai2(text: string): Bai2File {
  const records = logicalRecords(text);
  const assembler = new FileAssembler();
  for (const record of records) assembler.add(record);
  if (!assembler.file || !assembler.closed) throw new Bai2ParseError(records.at(-1)?.line ?? 1, 'the file ends before its file trailer (99)');
  return assembler.file;
}

function yymmdd(date: string): string {
  const match = /^\d{2}(\d{2})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  return `${match[1]}${match[2]}${match[3]}`;
}

/** A field other than a detail's text: no delimiter, no line break. */
function field(value: string): string {
  if (/[,/\r\n]/.test(value) || value !== value.trim()) throw new RangeError(`a BAI2 field cannot hold "${value}"`);
  return value;
}

function text(value: string | null): string {
  if (value === null) return '/';
  if (/[\r\n]/.test(value) || value !== value.trimEnd() || value.endsWith('/') || value === '') throw new RangeError(`a BAI2 text cannot be "${value}"`);
  return value;
}

/** The fields a funds type carries after it, left blank (availability is not kept). */
function fundsFields(fundsType: string): string[] {
  switch (fundsType) {
    case 'S':
      return ['S', '', '', ''];
    case 'V':
      return ['V', '', ''];
    case 'D':
      return ['D', '0'];
    default:
      return [field(fundsType)];
  }
}

/**
 * Writes a BAI2 file, one physical record per logical record (variable length, so no 88s), with the
 * control totals and record counts computed here: what parseBai2 reads back as the same file.
 */
export function writeBai2(file: Bai2File): string {
  const lines = [`01,${[file.sender, file.receiver, yymmdd(file.createdAt.date), file.createdAt.time, file.fileId, '', '', '2'].map(field).join(',')}/`];
  let fileTotalCents = 0n;
  for (const group of file.groups) {
    const groupStart = lines.length;
    let groupTotalCents = 0n;
    lines.push(`02,${[group.ultimateReceiver, group.originator, '1', yymmdd(group.asOfDate), '2400', group.currency, ''].map(field).join(',')}/`);
    for (const account of group.accounts) {
      const accountStart = lines.length;
      let accountTotalCents = 0n;
      const summaries = account.summaries.flatMap((summary) => {
        accountTotalCents += summary.amountCents ?? 0n;
        return [field(summary.typeCode), summary.amountCents?.toString() ?? '', '', ''];
      });
      lines.push(`03,${[field(account.accountNumber), field(account.currency), ...summaries].join(',')}/`);
      for (const detail of account.details) {
        if (detail.amountCents < 0n) throw new RangeError('a detail amount is unsigned');
        accountTotalCents += detail.amountCents;
        const fields = [
          field(detail.typeCode),
          detail.amountCents.toString(),
          ...fundsFields(detail.fundsType),
          field(detail.bankReference ?? ''),
          field(detail.customerReference ?? ''),
        ];
        lines.push(`16,${fields.join(',')},${text(detail.text)}`);
      }
      lines.push(`49,${accountTotalCents},${lines.length - accountStart + 1}/`);
      groupTotalCents += accountTotalCents;
    }
    lines.push(`98,${groupTotalCents},${group.accounts.length},${lines.length - groupStart + 1}/`);
    fileTotalCents += groupTotalCents;
  }
  lines.push(`99,${fileTotalCents},${file.groups.length},${lines.length + 1}/`);
  return `${lines.join('\n')}\n`;
}
