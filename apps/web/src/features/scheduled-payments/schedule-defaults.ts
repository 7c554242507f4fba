import { formatMoney } from '@strongroom/contracts/money.ts';
import type { ScheduledPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { emptyRecipient, type OtherBankFormValues } from '../../components/payment/other-bank-schema.ts';
import { emptyScheduleForm, type ScheduleFormValues } from './schedule-form-schema.ts';

/** The person form's values: never a favourite, never saved as one from here. */
export function recipientDefaults(fromAccountId: string, bank: 'this' | 'other', fields: Partial<OtherBankFormValues> = {}): OtherBankFormValues {
  return { fromAccountId, favourite: false, bank, ...emptyRecipient, amount: '', message: '', addToFavorites: false, ...fields };
}

/** `/payments/scheduled/new?kind=bill&billPayeeId=...`, `?kind=own`, `?kind=internal` or `?kind=external`: who is paid, chosen beforehand. */
export function defaultsFromQuery(search: URLSearchParams, fromAccountId: string, startDate: string) {
  const kind = search.get('kind');
  const form = emptyScheduleForm(fromAccountId, startDate);
  const recipient = recipientDefaults(fromAccountId, kind === 'internal' ? 'this' : 'other');
  if (kind === 'bill') return { form: { ...form, kind: 'bill', billPayeeId: search.get('billPayeeId') ?? '' } satisfies ScheduleFormValues, recipient };
  if (kind === 'own') return { form: { ...form, kind: 'own' } satisfies ScheduleFormValues, recipient };
  if (kind === 'internal' || kind === 'external') return { form: { ...form, kind: 'person' } satisfies ScheduleFormValues, recipient };
  return { form, recipient };
}

/**
 * The form filled in from a schedule, for Edit. Its first date is the next payment that can still
 * be changed (so a weekly series keeps its weekday), or the schedule's own first date.
 */
export function defaultsFromSchedule(schedule: ScheduledPayment, earliestDate: string) {
  const { payment } = schedule;
  const nextChangeable = schedule.upcoming.find((occurrence) => occurrence.changeable)?.dueDate;
  const startDate = schedule.startDate >= earliestDate ? schedule.startDate : (nextChangeable ?? earliestDate);
  const form: ScheduleFormValues = {
    ...emptyScheduleForm(payment.fromAccountId, startDate),
    kind: payment.kind === 'internal' || payment.kind === 'external' ? 'person' : payment.kind,
    toAccountId: payment.toAccountId ?? '',
    billPayeeId: payment.billPayeeId ?? '',
    amount: formatMoney(payment.amountCents, 'decimal'),
    message: payment.message,
    repeat: schedule.frequency === 'once' ? 'once' : 'repeating',
    frequency: schedule.frequency === 'once' ? 'monthly' : schedule.frequency,
    ...(schedule.dayOfMonth === null ? {} : { dayOfMonth: String(schedule.dayOfMonth) }),
    ends: schedule.frequency === 'once' ? '' : schedule.endDate !== null ? 'date' : schedule.count !== null ? 'count' : 'never',
    endDate: schedule.endDate ?? '',
    count: schedule.count === null ? '' : String(schedule.count),
  };
  const recipient = recipientDefaults(payment.fromAccountId, payment.kind === 'internal' ? 'this' : 'other', {
    toAccountNumber: payment.toAccountNumber ?? '',
    accountName: payment.accountName ?? '',
    routeNumber: payment.routeNumber ?? '',
    nameOfBank: payment.nameOfBank ?? '',
    nameOfCountry: payment.nameOfCountry ?? '',
  });
  return { form, recipient };
}
