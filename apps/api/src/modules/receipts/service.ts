import { formatMoney } from '@strongroom/contracts/money.ts';
import type { PaymentStatus } from '@strongroom/contracts/payments.ts';
import type { ReceiptVerification, TransactionDetail } from '@strongroom/contracts/transactions.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { AppError } from '../../platform/errors.ts';
import { centsToJson } from '../../platform/money.ts';
import { visibleStatus } from '../../platform/payment-status.ts';
import { normalizeReceiptReference } from '../../platform/receipt-reference.ts';
import type { CustomerActor } from '../../platform/request-actor.ts';
import { transactionDetail } from '../history/service.ts';
import { renderReceiptPdf, type ReceiptContent } from './receipt-pdf.ts';
import { findVerification } from './repository.ts';

export type ReceiptConfig = Pick<Config, 'secrets' | 'bankName' | 'bankTimeZone' | 'publicUrl' | 'mode'>;

const statusWords: Record<PaymentStatus, string> = {
  completed: 'Completed',
  pending: 'Pending',
  in_review: 'In review',
  rejected: 'Rejected',
  returned: 'Returned',
};

/** 2024-05-01 14:03 America/New_York: the bank's own clock, named, as a statement prints it. */
export function formatBankTime(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${timeZone}`;
}

export function receiptVerifyUrl(config: Pick<Config, 'publicUrl'>, reference: string): string {
  return `${config.publicUrl}/receipts/verify/${reference}`;
}

/** ••••1234: the last four digits of an account or card number, as the verification page shows it. */
export function maskAccountNumber(number: string | null): string | null {
  if (number === null) return null;
  const digits = number.replace(/\D/g, '');
  return digits.length >= 4 ? `••••${digits.slice(-4)}` : '••••';
}

function accountLabel(account: TransactionDetail['account']): string {
  const type = account.type.charAt(0).toUpperCase() + account.type.slice(1);
  return `${type} ${maskAccountNumber(account.number) ?? ''}`.trim();
}

/**
 * The facts a receipt prints: a deposit (and the opening deposit) lists deposit id, date, amount
 * and status; every other line is a transfer receipt listing amount, date, account number, account
 * name, route number, reason and transfer medium (docs/product.md section 9 (the seed's section 3)), with its status.
 */
export function receiptFacts(detail: TransactionDetail, timeZone: string): [string, string][] {
  const { transaction } = detail;
  const amount = formatMoney(Math.abs(transaction.amountCents));
  const date = formatBankTime(new Date(transaction.createdAt), timeZone);
  const status = statusWords[transaction.status];
  const reference: [string, string] = ['Reference', detail.receiptReference];
  if (transaction.kind === 'deposit' || transaction.kind === 'funding') {
    return [
      reference,
      ['Deposit ID', transaction.transferId],
      ['Date', date],
      ['Amount', amount],
      ['Status', status],
      ['Deposited to', accountLabel(detail.account)],
    ];
  }
  const moneyOut = transaction.amountCents < 0;
  return [
    reference,
    ['Amount', amount],
    ['Date', date],
    [moneyOut ? 'Paid from' : 'Paid into', accountLabel(detail.account)],
    ['Account number', detail.counterparty.accountNumber ?? 'Not shown'],
    ['Account name', detail.counterparty.name],
    ['Routing number', detail.counterparty.routeNumber ?? 'Not shown'],
    ...(detail.counterparty.bankName ? [['Bank', detail.counterparty.bankName] as [string, string]] : []),
    ['Reason', detail.reason],
    ['Transfer medium', detail.medium],
    ['Status', status],
    ...(detail.statusReason ? [['Why', detail.statusReason] as [string, string]] : []),
  ];
}

/** `GET /transactions/{id}/receipt`: the line's receipt as a PDF, under the same rules as its details. */
export async function receiptFor(db: Queryable, config: ReceiptConfig, actor: CustomerActor, lineId: string): Promise<{ reference: string; pdf: Buffer }> {
  const detail = await transactionDetail(db, config, actor, lineId);
  const content: ReceiptContent = {
    bankName: config.bankName,
    reference: detail.receiptReference,
    facts: receiptFacts(detail, config.bankTimeZone),
    verifyUrl: receiptVerifyUrl(config, detail.receiptReference),
    issuedAt: formatBankTime(new Date(), config.bankTimeZone),
    sandbox: config.mode === 'sandbox',
  };
  return { reference: detail.receiptReference, pdf: await renderReceiptPdf(content) };
}

/**
 * `GET /receipts/verify/{reference}` (public): what the receipt printed, current status included,
 * with accounts masked. The account the money came from is shown only on the payer's receipt or
 * between one customer's own accounts: a recipient's receipt never shows the payer's account.
 */
export async function verifyReceipt(db: Queryable, referenceText: string): Promise<ReceiptVerification> {
  const reference = normalizeReceiptReference(referenceText);
  const row = reference ? await findVerification(db, reference) : undefined;
  if (!row || row.status === 'creating' || row.status === 'failed') throw new AppError('not_found', 'No receipt has this reference');
  const showsPayer = row.side === 'out' || row.same_customer;
  return {
    reference: row.reference,
    genuine: true,
    amountCents: centsToJson(row.amount_cents),
    status: visibleStatus(row.status),
    date: row.created_at.toISOString(),
    kind: row.kind,
    fromAccount: showsPayer ? maskAccountNumber(row.from_number) : null,
    toAccount: maskAccountNumber(row.side === 'out' ? row.counterparty_account_number : row.to_number),
  };
}
