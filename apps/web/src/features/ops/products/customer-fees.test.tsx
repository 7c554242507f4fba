import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerFee, FeeRefund } from '@strongroom/contracts/products.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf } from '../../../test/render-app.tsx';
import { renderSection } from '../../../test/render-section.tsx';
import { CustomerFees } from './customer-fees.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const customerId = '6f1c1f7e-7a38-4c51-9a53-0d5a3e0f5b11';

function fee(paymentId: string, amountCents: number, refund: FeeRefund | null = null): CustomerFee {
  return {
    paymentId,
    accountId: 'a1',
    accountName: 'Gold Checking',
    amountCents,
    message: 'Monthly maintenance fee',
    chargedAt: '2026-10-31T23:00:00.000Z',
    refund,
  };
}

function refund(status: FeeRefund['status'], requestedBy: string): FeeRefund {
  return {
    id: 'r1',
    feePaymentId: 'f2',
    customerId,
    amountCents: 2_495,
    status,
    requestedBy,
    requestReason: 'Charged in error',
    decidedBy: null,
    decisionReason: null,
    refundPaymentId: null,
    toAccountId: null,
    createdAt: '2026-11-02T10:00:00.000Z',
    decidedAt: null,
  };
}

const feesPath = `GET /api/v1/staff/customers/${customerId}/fees`;

describe("the customer page's Fees panel (fees.refund)", () => {
  it('refunds a fee with a reason given in a dialog, then shows it refunded', async () => {
    const user = userEvent.setup();
    let refunded = false;
    const bodies: unknown[] = [];
    renderSection(<CustomerFees customerId={customerId} staffId="s1" />, {
      [feesPath]: () => ({
        status: 200,
        body: {
          fourEyesCents: 2_000,
          items: [fee('f1', 1_495, refunded ? { ...refund('refunded', 's1'), feePaymentId: 'f1', decidedAt: '2026-11-29T10:00:00.000Z' } : null)],
        },
      }),
      'POST /api/v1/staff/fees/f1/refund': (init) => {
        bodies.push(jsonBodyOf(init));
        refunded = true;
        return { status: 201, body: { refund: { ...refund('refunded', 's1'), feePaymentId: 'f1', amountCents: 1_495 } } };
      },
    });
    const table = await screen.findByRole('table', { name: 'Fees charged' });
    expect(within(table).getByText('$14.95')).toBeTruthy();
    expect(within(table).getByText('Not refunded')).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund $14.95' });
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'ok');
    await user.click(within(dialog).getByRole('button', { name: 'Refund $14.95' }));
    expect(await within(dialog).findByText('the reason needs at least 3 characters')).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.clear(within(dialog).getByLabelText('Reason (kept in the audit log)'));
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Waiver was met; our mistake');
    await user.click(within(dialog).getByRole('button', { name: 'Refund $14.95' }));
    expect(await screen.findByText('Refund $14.95: done.')).toBeTruthy();
    expect(bodies).toEqual([{ reason: 'Waiver was met; our mistake' }]);
    expect(await within(screen.getByRole('table', { name: 'Fees charged' })).findByText(/^Refunded/)).toBeTruthy();
  });

  it('a refund awaiting approval: its requester cannot approve it; another staff member can', async () => {
    const user = userEvent.setup();
    const items = [fee('f2', 2_495, refund('awaiting_approval', 's1'))];
    renderSection(<CustomerFees customerId={customerId} staffId="s1" />, { [feesPath]: { status: 200, body: { fourEyesCents: 2_000, items } } });
    const own = await screen.findByRole('table', { name: 'Fees charged' });
    expect(within(own).getByText('Awaiting a second approval (you asked)')).toBeTruthy();
    expect(within(own).queryByRole('button', { name: 'Approve' })).toBeNull();
    cleanup();
    queryClient.clear();

    const approvals: unknown[] = [];
    renderSection(<CustomerFees customerId={customerId} staffId="s2" />, {
      [feesPath]: { status: 200, body: { fourEyesCents: 2_000, items } },
      'POST /api/v1/staff/fee-refunds/r1/approve': (init) => {
        approvals.push(jsonBodyOf(init));
        return { status: 200, body: { refund: { ...refund('refunded', 's1'), decidedBy: 's2' } } };
      },
    });
    const table = await screen.findByRole('table', { name: 'Fees charged' });
    await user.click(within(table).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve the $24.95 refund' });
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Checked the statement');
    await user.click(within(dialog).getByRole('button', { name: 'Approve: refund $24.95' }));
    expect(await screen.findByText('Approve: refund $24.95: done.')).toBeTruthy();
    expect(approvals).toEqual([{ reason: 'Checked the statement' }]);
  });

  it("says a refund from $20.00 waits for a second approval, and shows the server's refusal", async () => {
    const user = userEvent.setup();
    renderSection(<CustomerFees customerId={customerId} staffId="s1" />, {
      [feesPath]: { status: 200, body: { fourEyesCents: 2_000, items: [fee('f3', 2_495)] } },
      'POST /api/v1/staff/fees/f3/refund': {
        status: 409,
        body: { error: { code: 'fee_already_refunded', message: 'This fee was already refunded, or its refund is waiting for a second approval' } },
      },
    });
    const table = await screen.findByRole('table', { name: 'Fees charged' });
    await user.click(within(table).getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund $24.95' });
    expect(dialog.textContent).toContain("A fee of $20.00 or more waits for a second staff member's approval.");
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Goodwill');
    await user.click(within(dialog).getByRole('button', { name: 'Refund $24.95' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('already refunded');
  });

  it('says when there are no fees, and when they could not be loaded', async () => {
    renderSection(<CustomerFees customerId={customerId} staffId="s1" />, { [feesPath]: { status: 200, body: { fourEyesCents: 2_000, items: [] } } });
    expect(await screen.findByText('No fees charged.')).toBeTruthy();
    cleanup();
    queryClient.clear();
    renderSection(<CustomerFees customerId={customerId} staffId="s1" />, {
      [feesPath]: { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong on our side' } } },
    });
    expect(await screen.findByText('The fees could not be loaded')).toBeTruthy();
  });
});
