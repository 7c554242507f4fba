import type { PaymentStatus } from '@strongroom/contracts/payments.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import './transaction-format.css';
import { paymentStatusWords } from '@strongroom/contracts/messages.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The seed's history date, YYYY-MM-DD, on the bank's calendar (`timeZone`), wherever the customer
 * is: the day the history filter, the statements and the dashboard's month put the line on.
 */
export function calendarDate(isoDateTime: string, timeZone: string): string {
  const date = new Date(isoDateTime);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${isoDateTime}`);
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((each) => each.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Completed: a green dot; every other state a grey dot. The word is always there, so colour is never alone. */
export function TransactionStatus({ status }: { status: PaymentStatus }) {
  const tone = status === 'completed' ? 'completed' : 'other';
  return (
    <span className={`history-status history-status--${tone}`}>
      <span className="history-status__dot" aria-hidden="true" />
      {paymentStatusWords[status]}
    </span>
  );
}

/** `-$1,234.00` for money out, as money is written everywhere (issue 18), in red for a money-out category; the sign says what the colour says. */
/** A refused line (a declined card purchase, a payment staff rejected) moved no money: its amount is struck through, not in the colour of money. */
export function TransactionAmount({ transaction }: { transaction: Pick<Transaction, 'amountCents' | 'category' | 'status'> }) {
  if (transaction.status === 'rejected') return <s className="tabular money-none">{formatMoney(transaction.amountCents)}</s>;
  // The sign decides: a category such as Fee has lines both ways (a fee out, a fee given back in).
  const tone = transaction.amountCents < 0 ? 'money-out' : 'money-in';
  return <span className={`tabular ${tone}`}>{formatMoney(transaction.amountCents)}</span>;
}

export function TransactionDate({ createdAt }: { createdAt: string }) {
  const { timeZone } = useBankIdentity();
  return (
    <time dateTime={createdAt} className="history-date tabular">
      {calendarDate(createdAt, timeZone)}
    </time>
  );
}
