import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import type { FakeAnswer } from '../../../test/render-app.tsx';

/** Accounts at other banks for the deposit and 'Your other banks' tests. Ids are UUIDs, as deposits require. */
export const verifiedSource: FundingSource = {
  id: '5b1d7c2e-8f4a-4e3b-9a6c-1d2e3f4a5b6c',
  status: 'verified',
  accountName: 'Dana Demo',
  last4: '0055',
  routeNumber: '011000015',
  accountType: 'checking',
  bankName: null,
  attemptsLeft: 0,
  createdAt: '2026-03-01T10:00:00.000Z',
  verifiedAt: '2026-03-02T10:00:00.000Z',
};

export const waitingSource: FundingSource = {
  id: '6c2e8d3f-9a5b-4f4c-8b7d-2e3f4a5b6c7d',
  status: 'pending_verification',
  accountName: 'Dana Demo',
  last4: '7788',
  routeNumber: '021000021',
  accountType: 'savings',
  bankName: 'Hudson Valley Credit Union',
  attemptsLeft: 3,
  createdAt: '2026-03-03T10:00:00.000Z',
  verifiedAt: null,
};

export const failedSource: FundingSource = {
  ...waitingSource,
  id: '7d3f9e4a-0b6c-4a5d-9c8e-3f4a5b6c7d8e',
  status: 'failed',
  last4: '9911',
  attemptsLeft: 0,
};

export function sourceList(...items: FundingSource[]): FakeAnswer {
  return { status: 200, body: { items } };
}
