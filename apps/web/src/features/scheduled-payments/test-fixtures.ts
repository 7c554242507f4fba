import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import type { BankToday } from '@strongroom/contracts/calendar.ts';
import type { ScheduledPayment, ScheduledPaymentDetail, UpcomingPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { signedIn, type FakeApi } from '../../test/render-app.tsx';
import { checking, savings } from '../../test/payment-fixtures.ts';

/** Fakes of the scheduling screens' tests: the bank's day is Monday 9 March 2026, before the cut-off. */
export const today: BankToday = {
  businessDate: '2026-03-09',
  clockDate: '2026-03-09',
  aheadOfClock: false,
  achCutoff: '17:00',
  pastCutoff: false,
  earliestPaymentDate: '2026-03-09',
};

/** Weekdays from 2025-03-01 to 2027-04-30, less two holidays of 2026 (Memorial Day 25 May, Juneteenth 19 June). */
function weekdays(): string[] {
  const days: string[] = [];
  const holidays = new Set(['2026-05-25', '2026-06-19']);
  for (let time = Date.UTC(2025, 2, 1); time <= Date.UTC(2027, 3, 30); time += 86_400_000) {
    const date = new Date(time);
    const iso = date.toISOString().slice(0, 10);
    if (date.getUTCDay() !== 0 && date.getUTCDay() !== 6 && !holidays.has(iso)) days.push(iso);
  }
  return days;
}

export const cityWater: BillPayee = {
  id: '5b0d9c2e-1f3a-4d6b-8e7f-9a0b1c2d3e4f',
  billerId: '6c1e0d3f-2a4b-4e7c-9f8a-0b1c2d3e4f5a',
  billerName: 'City Water',
  category: 'water',
  nickname: 'Home water',
  accountEnding: '4821',
  createdAt: '2026-03-01T10:00:00.000Z',
};

export function scheduleOf(overrides: Partial<ScheduledPayment> = {}): ScheduledPayment {
  return {
    id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
    status: 'active',
    frequency: 'monthly',
    dayOfMonth: 14,
    startDate: '2026-03-14',
    endDate: null,
    count: null,
    payment: { kind: 'bill', fromAccountId: checking.id, amountCents: 4_500, message: '', billPayeeId: cityWater.id },
    description: 'Bill payment to City Water, account ending 4821',
    next: ['2026-03-13', '2026-04-14', '2026-05-14'],
    upcoming: [
      { date: '2026-03-13', dueDate: '2026-03-14', arrivesBy: '2026-03-16', changeable: true },
      { date: '2026-04-14', dueDate: '2026-04-14', arrivesBy: '2026-04-15', changeable: true },
      { date: '2026-05-14', dueDate: '2026-05-14', arrivesBy: '2026-05-15', changeable: true },
    ],
    createdAt: '2026-03-09T10:00:00.000Z',
    ...overrides,
  };
}

export function upcomingOf(overrides: Partial<UpcomingPayment> = {}): UpcomingPayment {
  const schedule = scheduleOf();
  return {
    scheduleId: schedule.id,
    kind: 'bill',
    amountCents: 4_500,
    description: schedule.description,
    date: '2026-03-13',
    dueDate: '2026-03-14',
    arrivesBy: '2026-03-16',
    changeable: true,
    retry: false,
    ...overrides,
  };
}

export function detailOf(schedule: ScheduledPayment = scheduleOf(), occurrences: ScheduledPaymentDetail['occurrences'] = []): ScheduledPaymentDetail {
  return { schedule, occurrences };
}

/** A signed-in customer with checking and savings, one bill payee, the bank's calendar, and `extra`. */
export function scheduleApi(extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking, savings] },
    'GET /api/v1/bill-payees': { status: 200, body: { items: [cityWater] } },
    'GET /api/v1/calendar/today': { status: 200, body: today },
    'GET /api/v1/calendar/business-days': { status: 200, body: { days: weekdays() } },
    ...extra,
  };
}
