import { z } from 'zod';
import type { BankToday } from '@strongroom/contracts/calendar.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { optionalPaymentMessageField, paymentMessageField } from '@strongroom/contracts/payments.ts';
import {
  maxScheduleCount,
  maxScheduleDaysAhead,
  scheduleMessages,
  type CreateScheduledPaymentRequest,
  type DayOfMonth,
  type ScheduleFrequency,
} from '@strongroom/contracts/scheduled-payments.ts';
import { amountTextField } from '../../components/payment/amount-field.ts';
import { addDays, formatDay } from './schedule-dates.ts';

/**
 * The scheduling form: who is paid (a bill payee, one of the customer's accounts, or a person,
 * whose fields are the transfer form's own: recipient-fields.tsx), how much, and when. The dates'
 * limits come from the bank (`GET /calendar/today`); the server checks them all again.
 */
export const recipientKinds = ['bill', 'own', 'person'] as const;
export type RecipientKind = (typeof recipientKinds)[number];

export const scheduleFormMessages = {
  chooseKind: 'Choose who you are paying',
  chooseBillPayee: 'Choose a bill payee',
  sameAccount: 'choose an account other than the one you pay from',
  chooseStart: 'Choose the date of the first payment',
  chooseEnd: 'Choose when the payments end',
  chooseEndDate: 'Choose the date of the last payment',
  count: `Enter a number of payments from 1 to ${maxScheduleCount}`,
} as const;

export const scheduleFormShape = z.object({
  kind: z.enum(['', ...recipientKinds]),
  fromAccountId: z.string(),
  toAccountId: z.string(),
  billPayeeId: z.string(),
  amount: z.string(),
  message: z.string(),
  repeat: z.enum(['once', 'repeating']),
  frequency: z.enum(['weekly', 'biweekly', 'monthly']),
  dayOfMonth: z.string(),
  startDate: z.string(),
  ends: z.enum(['', 'never', 'date', 'count']),
  endDate: z.string(),
  count: z.string(),
});
export type ScheduleFormValues = z.input<typeof scheduleFormShape>;

export interface ScheduleChecked {
  kind: RecipientKind;
  fromAccountId: string;
  toAccountId: string;
  billPayeeId: string;
  amountCents: number;
  message: string;
  when: Omit<CreateScheduledPaymentRequest, 'payment'>;
}

/** The first and last dates a schedule may use: the bank's earliest payment date, and a year after its business date. */
export function dateLimitsOf(today: Pick<BankToday, 'businessDate' | 'clockDate' | 'earliestPaymentDate'>) {
  return { today: today.clockDate, earliest: today.earliestPaymentDate, latest: addDays(today.businessDate, maxScheduleDaysAhead) };
}
export type DateLimits = ReturnType<typeof dateLimitsOf>;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

function startDateProblem(startDate: string, limits: DateLimits): string | null {
  if (!isoDate.test(startDate)) return scheduleFormMessages.chooseStart;
  if (startDate < limits.today) return scheduleMessages.startInPast;
  if (startDate < limits.earliest) return `A payment made now can be dated ${formatDay(limits.earliest, { withYear: true })} at the earliest`;
  if (startDate > limits.latest) return scheduleMessages.tooFarAhead;
  return null;
}

function endProblem(values: ScheduleFormValues, limits: DateLimits): { path: 'ends' | 'endDate' | 'count'; message: string } | null {
  if (values.repeat === 'once') return null;
  if (values.ends === '') return { path: 'ends', message: scheduleFormMessages.chooseEnd };
  if (values.ends === 'date') {
    if (!isoDate.test(values.endDate)) return { path: 'endDate', message: scheduleFormMessages.chooseEndDate };
    if (values.endDate < values.startDate) return { path: 'endDate', message: scheduleMessages.endBeforeStart };
    if (values.endDate > limits.latest) return { path: 'endDate', message: scheduleMessages.tooFarAhead };
  }
  if (values.ends === 'count') {
    const count = Number(values.count);
    if (!/^\d+$/.test(values.count.trim()) || count < 1 || count > maxScheduleCount) return { path: 'count', message: scheduleFormMessages.count };
  }
  return null;
}

function recipientProblem(values: ScheduleFormValues): { path: 'kind' | 'toAccountId' | 'billPayeeId'; message: string } | null {
  if (values.kind === '') return { path: 'kind', message: scheduleFormMessages.chooseKind };
  if (values.kind === 'bill' && values.billPayeeId === '') return { path: 'billPayeeId', message: scheduleFormMessages.chooseBillPayee };
  if (values.kind === 'own' && values.toAccountId === '') return { path: 'toAccountId', message: validationMessages.required };
  if (values.kind === 'own' && values.toAccountId === values.fromAccountId) return { path: 'toAccountId', message: scheduleFormMessages.sameAccount };
  return null;
}

function whenOf(values: ScheduleFormValues): ScheduleChecked['when'] {
  if (values.repeat === 'once') return { startDate: values.startDate, frequency: 'once' };
  const frequency: ScheduleFrequency = values.frequency;
  const dayOfMonth: DayOfMonth | undefined = frequency !== 'monthly' ? undefined : values.dayOfMonth === 'last' ? 'last' : Number(values.dayOfMonth);
  return {
    startDate: values.startDate,
    frequency,
    ...(dayOfMonth === undefined ? {} : { dayOfMonth }),
    ...(values.ends === 'date' ? { endDate: values.endDate } : {}),
    ...(values.ends === 'count' ? { count: Number(values.count) } : {}),
  };
}

/** The form's schema for the bank's date limits: every bad input gets its message under its field. */
export function scheduleFormSchema(limits: DateLimits) {
  return scheduleFormShape.transform((values, context): ScheduleChecked => {
    const issue = (path: keyof ScheduleFormValues, message: string) => context.addIssue({ code: 'custom', path: [path], message });
    const recipient = recipientProblem(values);
    if (recipient) issue(recipient.path, recipient.message);
    if (values.fromAccountId === '') issue('fromAccountId', validationMessages.required);
    const amount = amountTextField.safeParse(values.amount);
    if (!amount.success) issue('amount', amount.error.issues[0]?.message ?? validationMessages.required);
    const message = (values.kind === 'person' ? paymentMessageField : optionalPaymentMessageField).safeParse(values.message);
    if (!message.success) issue('message', message.error.issues[0]?.message ?? validationMessages.required);
    const start = startDateProblem(values.startDate, limits);
    if (start) issue('startDate', start);
    const end = start ? null : endProblem(values, limits);
    if (end) issue(end.path, end.message);
    if (recipient || !amount.success || !message.success || start || end || values.kind === '') return z.NEVER;
    return { ...values, kind: values.kind, amountCents: amount.data, message: message.data, when: whenOf(values) };
  });
}

/** An empty form; `?kind=bill&billPayeeId=` (or own, internal, external) chooses who is paid. */
export function emptyScheduleForm(fromAccountId: string, startDate: string): ScheduleFormValues {
  return {
    kind: '',
    fromAccountId,
    toAccountId: '',
    billPayeeId: '',
    amount: '',
    message: '',
    repeat: 'once',
    frequency: 'monthly',
    dayOfMonth: String(Number(startDate.slice(8, 10)) || 1),
    startDate,
    ends: '',
    endDate: '',
    count: '',
  };
}
