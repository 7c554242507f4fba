import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import type { Biller } from '@strongroom/contracts/billers.ts';
import { checking } from '../../test/payment-fixtures.ts';
import { signedIn, type FakeApi } from '../../test/render-app.tsx';

/** Billers and payees for Bill Pay's tests. Ids are UUIDs, as the contracts require. */
export const cityPower: Biller = {
  id: '0b9a8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d',
  name: 'City Power & Light',
  category: 'electricity',
  accountNumberPattern: '\\d{10}',
  accountNumberExample: '1234567890',
};

export const sunnyGrid: Biller = {
  id: '1c0b9d8e-7f6a-4b5c-9d3e-2f1a0b9c8d7e',
  name: 'Sunny Grid Energy',
  category: 'electricity',
  accountNumberPattern: 'SG-\\d{6}',
  accountNumberExample: 'SG-123456',
};

export const homePower: BillPayee = {
  id: '2d1c0e9f-8a7b-4c6d-8e4f-3a2b1c0d9e8f',
  billerId: cityPower.id,
  billerName: cityPower.name,
  category: 'electricity',
  nickname: 'Home electricity',
  accountEnding: '4821',
  createdAt: '2026-03-01T10:00:00.000Z',
};

export const waterPayee: BillPayee = {
  id: '3e2d1f0a-9b8c-4d7e-9f5a-4b3c2d1e0f9a',
  billerId: '4f3e2a1b-0c9d-4e8f-8a6b-5c4d3e2f1a0b',
  billerName: 'Example Water Works',
  category: 'water',
  nickname: 'Lake house water',
  accountEnding: '0007',
  createdAt: '2026-03-02T10:00:00.000Z',
};

/** A signed-in, approved customer with one checking account, the electricity billers and these payees. */
export function billPayApi(payees: readonly BillPayee[] = [homePower, waterPayee], extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/me': signedIn,
    'GET /api/v1/accounts': { status: 200, body: [checking] },
    'GET /api/v1/billers': { status: 200, body: { items: [cityPower, sunnyGrid] } },
    'GET /api/v1/bill-payees': { status: 200, body: { items: payees } },
    ...extra,
  };
}
