import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IdentityReview, StaffReferralBonus } from '@strongroom/contracts/staff-identity.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../../test/render-app.tsx';
import { waitingFor } from './waiting-time.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const compliance = {
  status: 200,
  body: { staff: { id: 's1', email: 'carla@bank.test', role: 'compliance', permissions: ['customers.read', 'identity.decide', 'transfers.review'] } },
};

const review: IdentityReview = {
  id: '6f1c1a52-7a53-4bb4-9d1c-0c7c4c2b9d10',
  customerId: 'c1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  country: 'US',
  state: 'IL',
  address: '1 Main Street\nApartment 4B',
  city: 'Springfield',
  zipCode: '62701-1234',
  dateOfBirth: '1985-06-15',
  idType: 'ssn',
  idNumberLast4: '6789',
  status: 'submitted',
  reason: null,
  submittedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
  decidedAt: null,
  decidedBy: null,
  hasDocument: true,
  hasProfilePhoto: false,
};

describe('waitingFor', () => {
  it('says how long in the largest whole unit', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(waitingFor('2026-11-24T11:59:30Z', now)).toBe('under a minute');
    expect(waitingFor('2026-11-24T11:48:00Z', now)).toBe('12 min');
    expect(waitingFor('2026-11-24T09:00:00Z', now)).toBe('3 h');
    expect(waitingFor('2026-11-22T11:00:00Z', now)).toBe('2 d');
  });
});

describe('/ops/identity', () => {
  it('lists waiting reviews in a table with how long each waits, and counts them in the navigation', async () => {
    renderApp('/ops/identity', {
      'GET /api/v1/staff/me': compliance,
      'GET /api/v1/staff/identity-reviews': { status: 200, body: { items: [review], nextCursor: null, total: 1 } },
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'Ada Lovelace' }).getAttribute('href')).toBe(`/ops/identity/${review.id}`);
    expect(within(table).getByText('2 h')).toBeTruthy();
    expect(within(table).getByText('Waiting')).toBeTruthy();
    expect(await within(screen.getByRole('navigation', { name: 'Back office' })).findByLabelText('1 waiting')).toBeTruthy();
  });

  it('says so when nothing waits, and offers a retry when the list fails', async () => {
    renderApp('/ops/identity', {
      'GET /api/v1/staff/me': compliance,
      'GET /api/v1/staff/identity-reviews': { status: 200, body: { items: [], nextCursor: null, total: 0 } },
    });
    expect(await screen.findByText('No identity documents are waiting')).toBeTruthy();
    queryClient.clear();
    vi.unstubAllGlobals();
    renderApp('/ops/identity', {
      'GET /api/v1/staff/me': compliance,
      'GET /api/v1/staff/identity-reviews': { status: 403, body: { error: { code: 'forbidden', message: 'Your role does not allow this' } } },
    });
    expect(await screen.findByText('The identity reviews could not be loaded')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('/ops/identity/:reviewId', () => {
  it('shows the document from the staff endpoint and the ID number masked; Reveal asks for a reason first', async () => {
    const user = userEvent.setup();
    const reveal = vi.fn((init: RequestInit | undefined) => {
      expect(jsonBodyOf(init)).toEqual({ reason: 'Comparing with the document' });
      return { status: 200, body: { idNumber: '123-45-6789' } };
    });
    renderApp(`/ops/identity/${review.id}`, {
      'GET /api/v1/staff/me': compliance,
      [`GET /api/v1/staff/identity-reviews/${review.id}`]: { status: 200, body: { review, duplicates: [], referralBonus: null } },
      [`POST /api/v1/staff/identity-reviews/${review.id}/id-number`]: reveal,
    });
    const document = await screen.findByRole('img', { name: 'Identity document of Ada Lovelace' });
    expect(document.getAttribute('src')).toBe(`/api/v1/staff/identity-reviews/${review.id}/document`);
    expect(screen.getByText('No profile photo yet')).toBeTruthy();
    expect(screen.getByText('•••• 6789')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reveal the full ID number' });
    await user.click(within(dialog).getByRole('button', { name: 'Reveal' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    expect(reveal).not.toHaveBeenCalled();
    await user.type(within(dialog).getByLabelText(/Reason/), 'Comparing with the document');
    await user.click(within(dialog).getByRole('button', { name: 'Reveal' }));
    expect(await screen.findByText('123-45-6789')).toBeTruthy();
    expect(reveal).toHaveBeenCalledTimes(1);
  });

  it('rejects only after a reason and a confirmation, and shows the reason as text', async () => {
    const user = userEvent.setup();
    const reason = '<b>Blurred</b> photo';
    let decided = false;
    renderApp(`/ops/identity/${review.id}`, {
      'GET /api/v1/staff/me': compliance,
      [`GET /api/v1/staff/identity-reviews/${review.id}`]: () => ({
        status: 200,
        body: {
          review: decided ? { ...review, status: 'rejected', reason, decidedAt: new Date().toISOString(), decidedBy: 's1' } : review,
          duplicates: [],
          referralBonus: null,
        },
      }),
      [`POST /api/v1/staff/identity-reviews/${review.id}/decision`]: (init) => {
        expect(jsonBodyOf(init)).toEqual({ decision: 'reject', reason });
        decided = true;
        return {
          status: 200,
          body: {
            review: { ...review, status: 'rejected', reason, decidedAt: new Date().toISOString(), decidedBy: 's1' },
            duplicates: [],
            referralBonus: null,
          },
        };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this identity?' });
    expect(within(dialog).getByText(/cannot be undone/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/Reason/), reason);
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText(/Rejected on .*: <b>Blurred<\/b> photo/)).toBeTruthy();
    expect(document.querySelector('main b')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('says when someone else decided first', async () => {
    const user = userEvent.setup();
    renderApp(`/ops/identity/${review.id}`, {
      'GET /api/v1/staff/me': compliance,
      [`GET /api/v1/staff/identity-reviews/${review.id}`]: { status: 200, body: { review, duplicates: [], referralBonus: null } },
      [`POST /api/v1/staff/identity-reviews/${review.id}/decision`]: {
        status: 409,
        body: { error: { code: 'already_decided', message: 'This review was already decided' } },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this identity?' });
    await user.type(within(dialog).getByLabelText(/Reason/), 'Matches the document');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Someone already decided this review.')).toBeTruthy();
  });

  it('shows who shares the phone, ID number or browser, and pays a held referral bonus only after a reason', async () => {
    const user = userEvent.setup();
    const approved: IdentityReview = { ...review, status: 'approved', decidedAt: new Date().toISOString(), decidedBy: 's1' };
    const held: StaffReferralBonus = {
      id: '0d6a4c1e-52b1-4f0e-9f57-7b8f5a4f3c21',
      status: 'held',
      bonusCents: 1000,
      referrerCustomerId: 'c0',
      referrerName: 'Charles Babbage',
      heldBecause: ['id_number', 'phone'],
      decidedBy: null,
      decidedAt: null,
      decisionReason: null,
    };
    const reason = 'Different people: checked both documents';
    let paid = false;
    const pay = vi.fn((init: RequestInit | undefined) => {
      expect(jsonBodyOf(init)).toEqual({ decision: 'pay', reason });
      paid = true;
      return {
        status: 200,
        body: { referralBonus: { ...held, status: 'paid', decidedBy: 's1', decidedAt: new Date().toISOString(), decisionReason: reason } },
      };
    });
    renderApp(`/ops/identity/${review.id}`, {
      'GET /api/v1/staff/me': compliance,
      [`GET /api/v1/staff/identity-reviews/${review.id}`]: () => ({
        status: 200,
        body: {
          review: approved,
          duplicates: [{ customerId: 'c0', name: 'Charles Babbage', shares: ['id_number', 'phone'], referrer: true }],
          referralBonus: paid ? { ...held, status: 'paid', decidedBy: 's1', decidedAt: new Date().toISOString(), decisionReason: reason } : held,
        },
      }),
      [`POST /api/v1/staff/referral-bonuses/${held.id}/decision`]: pay,
    });
    const table = await screen.findByRole('table', { name: 'Customers who share this phone number, ID number or browser' });
    expect(within(table).getByRole('link', { name: 'Charles Babbage' }).getAttribute('href')).toBe('/ops/customers/c0');
    expect(within(table).getByText('Referred this customer')).toBeTruthy();
    expect(within(table).getByText('ID number and phone number')).toBeTruthy();
    expect(screen.getByText(/Held for review: \$10\.00 to Charles Babbage/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Pay $10.00 to Charles Babbage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pay $10.00 to Charles Babbage?' });
    await user.click(within(dialog).getByRole('button', { name: 'Pay $10.00' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    expect(pay).not.toHaveBeenCalled();
    await user.type(within(dialog).getByLabelText(/Reason/), reason);
    await user.click(within(dialog).getByRole('button', { name: 'Pay $10.00' }));
    expect(await screen.findByText(/Paid: \$10\.00 to Charles Babbage/)).toBeTruthy();
    expect(pay).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Refuse the bonus' })).toBeNull();
  });

  it('shows staff the kind of ID, the date of birth and the whole address, the street on its two lines', async () => {
    renderApp(`/ops/identity/${review.id}`, {
      'GET /api/v1/staff/me': compliance,
      [`GET /api/v1/staff/identity-reviews/${review.id}`]: { status: 200, body: { review, duplicates: [], referralBonus: null } },
    });
    const kind = await screen.findByText('Social Security number');
    expect(kind.tagName).toBe('DT');
    expect(screen.getByText(/^June 15, 1985 \(age \d+\)$/)).toBeTruthy();
    const address = screen.getByText((_, element) => element?.classList.contains('ops-review__address') === true);
    expect(address.textContent).toBe('1 Main Street\nApartment 4B\nSpringfield, Illinois 62701-1234');
  });

  it('shows a review sent before dates of birth were asked for as it was typed', async () => {
    const older: IdentityReview = {
      ...review,
      state: 'Illinois',
      address: '1 Main Street, Springfield',
      city: null,
      zipCode: null,
      dateOfBirth: null,
      idType: null,
    };
    renderApp(`/ops/identity/${review.id}`, {
      'GET /api/v1/staff/me': compliance,
      [`GET /api/v1/staff/identity-reviews/${review.id}`]: { status: 200, body: { review: older, duplicates: [], referralBonus: null } },
    });
    expect(await screen.findByText('Not asked (sent before dates of birth were)')).toBeTruthy();
    const address = screen.getByText((_, element) => element?.classList.contains('ops-review__address') === true);
    expect(address.textContent).toBe('1 Main Street, Springfield\nIllinois');
  });

  it('answers an unknown review with a way back to the queue', async () => {
    renderApp('/ops/identity/nope', { 'GET /api/v1/staff/me': compliance });
    expect(await screen.findByText('This identity review does not exist')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the identity queue' })).toBeTruthy();
  });
});
