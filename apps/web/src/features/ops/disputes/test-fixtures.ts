import type { StaffDispute, StaffDisputeDetail } from '@strongroom/contracts/disputes.ts';
import { rolePermissions, type StaffRole } from '@strongroom/contracts/staff.ts';
import type { FakeAnswer } from '../../../test/render-app.tsx';

/** The signed-in staff member (id `s1` unless told), with the role's permissions. */
export function staffMe(role: StaffRole, id = 's1'): FakeAnswer {
  return { status: 200, body: { staff: { id, email: `${role}@bank.test`, role, permissions: [...rolePermissions[role]] } } };
}

/** A case as the queue and the case page receive it: a $42.50 card charge, reported Nov 2, nothing done yet. */
export function staffDispute(overrides: Partial<StaffDispute> = {}): StaffDispute {
  return {
    id: '00000000-0000-4000-8000-00000000d001',
    status: 'submitted',
    transferId: '00000000-0000-4000-8000-00000000a001',
    reason: 'unauthorized',
    description: 'I never shopped at this store and still have my card.',
    amountCents: 4_250,
    transaction: { kind: 'card', description: 'Corner Electronics', amountCents: 4_250, date: '2026-10-30' },
    receivedOn: '2026-11-02',
    provisionalCreditBy: '2026-11-16',
    resolveBy: '2026-12-17',
    provisionalCreditCents: 0,
    reversalOn: null,
    cardReplaced: true,
    createdAt: '2026-11-02T15:00:00.000Z',
    updatedAt: '2026-11-02T15:00:00.000Z',
    customer: { id: 'c1', name: 'Ada Lovelace', email: 'ada@example.com' },
    nextDeadline: '2026-11-16',
    overdue: false,
    pendingDecision: null,
    ...overrides,
  };
}

export function staffDisputeDetail(dispute: StaffDispute = staffDispute(), overrides: Partial<StaffDisputeDetail> = {}): StaffDisputeDetail {
  return {
    dispute,
    events: [
      { kind: 'submitted', text: 'Reported: I did not make or allow this', at: '2026-11-02T15:00:00.000Z', staffReason: null, staffName: null, visible: true },
      {
        kind: 'investigating',
        text: 'We are looking into it',
        at: '2026-11-03T10:00:00.000Z',
        staffReason: 'Merchant pattern looks odd',
        staffName: 'Grace Hopper',
        visible: true,
      },
    ],
    letters: [{ id: 'l1', kind: 'acknowledgement', createdAt: '2026-11-02T15:00:01.000Z' }],
    evidence: [{ id: 'e1', fileName: 'receipt.pdf', contentType: 'application/pdf', byteSize: 20_480, createdAt: '2026-11-02T15:01:00.000Z' }],
    sameCounterparty: [{ id: 'p9', kind: 'card', amountCents: 1_999, status: 'completed', createdAt: '2026-09-12T18:00:00.000Z' }],
    ...overrides,
  };
}
