/**
 * A returns file as an ACH operator sends one to the bank that originated the entries: one batch
 * per receiving bank, each returned entry with its addenda 99 (return reason code and the trace
 * number of the bank's own entry). Written field by field from the NACHA layout, independently of
 * the bank's own writer, so that each checks the other.
 */
export interface ReturnedEntry {
  /** 26/36 a returned checking/savings debit, 21/31 a returned credit. */
  transactionCode: 21 | 26 | 31 | 36;
  originalTraceNumber: string;
  returnCode: string;
  amountCents: bigint;
  accountNumber: string;
  routingNumber: string;
  name: string;
}

const pad = (value: string, length: number) => value.slice(0, length).padEnd(length, ' ');
const zeros = (value: bigint | number, length: number) => value.toString().padStart(length, '0');

export function buildReturnsFile(entries: readonly ReturnedEntry[], options: { corruptTotals?: boolean } = {}): string {
  const lines: string[] = [];
  lines.push(`101 123456780 0110000152611240600A094101${pad('STRONGROOM DEMO BANK', 23)}${pad('FEDERAL RESERVE BANK', 23)}${pad('', 8)}`);
  lines.push(`5200${pad('RETURNS', 16)}${pad('', 20)}${pad('0110000155', 10)}PPD${pad('RETURN', 10)}${pad('', 6)}261124   1${'01100001'}${zeros(1, 7)}`);
  let debit = 0n;
  let credit = 0n;
  let hash = 0n;
  entries.forEach((entry, index) => {
    const trace = `01100001${zeros(index + 1, 7)}`;
    lines.push(
      `6${entry.transactionCode}${entry.routingNumber}${pad(entry.accountNumber, 17)}${zeros(entry.amountCents, 10)}${pad('', 15)}${pad(entry.name, 22)}  1${trace}`,
    );
    lines.push(`799${entry.returnCode}${entry.originalTraceNumber}${pad('', 6)}${entry.routingNumber.slice(0, 8)}${pad('', 44)}${trace}`);
    if (entry.transactionCode === 26 || entry.transactionCode === 36) debit += entry.amountCents;
    else credit += entry.amountCents;
    hash += BigInt(entry.routingNumber.slice(0, 8));
  });
  const count = entries.length * 2;
  const reportedDebit = options.corruptTotals ? debit + 1n : debit;
  lines.push(
    `8200${zeros(count, 6)}${zeros(hash % 10_000_000_000n, 10)}${zeros(reportedDebit, 12)}${zeros(credit, 12)}${pad('0110000155', 10)}${pad('', 25)}01100001${zeros(1, 7)}`,
  );
  const blocks = Math.ceil((lines.length + 1) / 10);
  lines.push(
    `9${zeros(1, 6)}${zeros(blocks, 6)}${zeros(count, 8)}${zeros(hash % 10_000_000_000n, 10)}${zeros(reportedDebit, 12)}${zeros(credit, 12)}${pad('', 39)}`,
  );
  while (lines.length % 10 !== 0) lines.push('9'.repeat(94));
  for (const line of lines) if (line.length !== 94) throw new Error(`returns file record of ${line.length} characters: ${line}`);
  return `${lines.join('\n')}\n`;
}
