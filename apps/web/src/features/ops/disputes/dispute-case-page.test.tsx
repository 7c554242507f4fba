import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffDispute } from '@strongroom/contracts/disputes.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeAnswer, type FakeApi } from '../../../test/render-app.tsx';
import { staffDispute, staffDisputeDetail, staffMe } from './test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const base = staffDispute();
const casePath = `/api/v1/staff/disputes/${base.id}`;
const actionPath = (action: string) => `POST ${casePath}/${action}`;

/** The case page of `dispute`, signed in as staff member `me`, with these action answers. */
function openCase(dispute: StaffDispute, api: FakeApi = {}, me = 's1') {
  return renderApp(`/ops/disputes/${dispute.id}`, {
    'GET /api/v1/staff/me': staffMe('operations', me),
    [`GET ${casePath}`]: { status: 200, body: staffDisputeDetail(dispute) },
    ...api,
  });
}

const answered = (dispute: StaffDispute, awaitingApproval?: boolean): FakeAnswer => ({
  status: awaitingApproval ? 202 : 200,
  body: { dispute, ...(awaitingApproval ? { awaitingApproval } : {}) },
});

const actionsOf = async () =>
  within(await screen.findByRole('region', { name: 'Actions' }))
    .queryAllByRole('button')
    .map((button) => button.textContent);

describe('/ops/disputes/:id, the case', () => {
  it('shows the transaction, the payments to the same payee, the deadlines, the evidence and letters, and the timeline with staff reasons', async () => {
    openCase(base);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace: $42.50 disputed' })).toBeTruthy();
    const transaction = screen.getByRole('region', { name: 'The transaction' });
    expect(transaction.textContent).toContain('Corner Electronics');
    expect(transaction.textContent).toContain('Oct 30, 2026');
    expect(transaction.textContent).toContain('I did not make or allow this');
    expect(transaction.textContent).toContain('Frozen and replaced when reported');
    const same = within(screen.getByRole('table', { name: "The customer's other payments to this payee" })).getAllByRole('row')[1];
    expect(same?.textContent).toContain('$19.99');
    expect(same?.textContent).toContain('Completed');
    const deadlines = screen.getByRole('region', { name: 'Deadlines' });
    expect(deadlines.textContent).toContain('Provisional credit byNov 16, 2026');
    expect(deadlines.textContent).toContain('Resolve byDec 17, 2026');
    const files = screen.getByRole('region', { name: 'Evidence and letters' });
    const evidence = within(files).getByRole('link', { name: 'receipt.pdf' });
    expect(evidence.getAttribute('href')).toBe(`${casePath}/evidence/e1`);
    expect(evidence.closest('li')?.textContent).toContain('opening it is recorded in the audit log');
    expect(within(files).getByRole('link', { name: 'Acknowledgement (PDF)' }).getAttribute('href')).toBe(`${casePath}/letters/l1`);
    const timeline = screen.getByRole('region', { name: 'Timeline' });
    expect(timeline.textContent).toContain('Investigation started');
    expect(timeline.textContent).toContain('by Grace Hopper');
    expect(timeline.textContent).toContain('Staff reason: Merchant pattern looks odd');
  });

  it('offers only the actions the state allows', async () => {
    openCase(base);
    expect(await actionsOf()).toEqual(['Start investigating', 'Give provisional credit', 'Ask the customer', 'Decide for the customer', 'Deny']);
    cleanup();
    queryClient.clear();
    openCase(staffDispute({ status: 'provisionally_credited', provisionalCreditCents: 4_250 }));
    expect(await actionsOf()).toEqual(['Ask the customer', 'Decide for the customer', 'Deny']);
    cleanup();
    queryClient.clear();
    openCase(staffDispute({ status: 'resolved', provisionalCreditCents: 4_250 }));
    expect(await actionsOf()).toEqual([]);
    expect(screen.getByText('No action is open: the case is resolved for the customer.')).toBeTruthy();
  });

  it.each([
    ['Start investigating', 'investigate', {}, 'Start investigating'],
    ['Give provisional credit', 'provisional-credit', {}, 'Credit $42.50 to Ada Lovelace'],
    ['Ask the customer', 'request-information', { 'Question for the customer (they read it)': 'Did anyone else use your card?' }, 'Send the question'],
    [
      'Decide for the customer',
      'decision',
      { 'Explanation for the customer (the result letter says it)': 'The merchant could not show you authorised it.' },
      'Resolve $42.50 for Ada Lovelace',
    ],
    [
      'Deny',
      'decision',
      { 'Explanation for the customer (the result letter says it)': 'Your card and PIN were used at your usual store.' },
      'Deny the claim of $42.50',
    ],
  ] as const)('%s: refuses a missing reason, then confirms and sends it', async (button, action, texts, confirm) => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    openCase(base, {
      [actionPath(action)]: (init) => {
        bodies.push(jsonBodyOf(init));
        return answered(staffDispute({ status: 'investigating' }));
      },
    });
    await user.click(await screen.findByRole('button', { name: button }));
    const dialog = await screen.findByRole('dialog');
    for (const [label, text] of Object.entries(texts)) await user.type(within(dialog).getByLabelText(label), text);
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    expect(within(dialog).getByLabelText('Reason (kept in the audit log)')).toBe(document.activeElement);
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'ok');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(await within(dialog).findByText('the reason needs at least 3 characters')).toBeTruthy();
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), ' per the case file');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(await within(dialog).findByText('Please confirm: this cannot be undone.')).toBeTruthy();
    expect(within(dialog).getByText('Reason: ok per the case file')).toBeTruthy();
    expect(bodies).toEqual([]);
    // Back to the form keeps what was written; Review again returns to the confirmation.
    await user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect((within(dialog).getByLabelText('Reason (kept in the audit log)') as HTMLTextAreaElement).value).toBe('ok per the case file');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    await user.click(within(dialog).getByRole('button', { name: confirm }));
    expect(await screen.findByText(/: done\.$/)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const [body] = bodies as Record<string, string>[];
    expect(body?.reason).toBe('ok per the case file');
    if (action === 'request-information') expect(body).toEqual({ question: 'Did anyone else use your card?', reason: 'ok per the case file' });
    if (action === 'decision') expect(body?.decision).toBe(button === 'Deny' ? 'denied' : 'customer');
  });

  it('a resolution from $500.00 answered 202 waits for a second person: said at once, and no Approve for its proposer', async () => {
    const user = userEvent.setup();
    const large = staffDispute({ amountCents: 60_000, transaction: { ...base.transaction, amountCents: 60_000 } });
    let proposed = false;
    const pending = { decision: 'customer' as const, by: 's1', reason: 'Clear fraud pattern', at: '2026-11-05T10:00:00.000Z' };
    renderApp(`/ops/disputes/${large.id}`, {
      'GET /api/v1/staff/me': staffMe('operations', 's1'),
      [`GET ${casePath}`]: () => ({ status: 200, body: staffDisputeDetail(proposed ? { ...large, pendingDecision: pending } : large) }),
      [actionPath('decision')]: () => {
        proposed = true;
        return answered({ ...large, pendingDecision: pending }, true);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Decide for the customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve $600.00 for Ada Lovelace' });
    expect(dialog.textContent).toContain("A resolution of $500.00 or more waits for a second staff member's approval");
    await user.type(within(dialog).getByLabelText('Explanation for the customer (the result letter says it)'), 'The charges were not yours.');
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Clear fraud pattern');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Resolve $600.00 for Ada Lovelace' }));
    expect(await screen.findByText(/^Waiting for a second person: your decision is recorded/)).toBeTruthy();
    expect(screen.getByText('Another staff member must approve it before it is carried out.')).toBeTruthy();
    // No second decision and no Approve for the one who proposed it; the rest of the work goes on.
    expect(await actionsOf()).toEqual(['Start investigating', 'Give provisional credit', 'Ask the customer']);
  });

  it('a decision proposed by someone else: "Approve this decision" with a reason carries it out', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    const pending = { decision: 'customer' as const, by: 's2', reason: 'Clear fraud pattern', at: '2026-11-05T10:00:00.000Z' };
    openCase(staffDispute({ amountCents: 60_000, status: 'investigating', pendingDecision: pending }), {
      [actionPath('decision/approve')]: (init) => {
        bodies.push(jsonBodyOf(init));
        return answered(staffDispute({ amountCents: 60_000, status: 'resolved' }));
      },
    });
    expect(await screen.findByText('You may approve it: it is then carried out.')).toBeTruthy();
    expect(await actionsOf()).toEqual(['Give provisional credit', 'Ask the customer', 'Approve this decision']);
    await user.click(screen.getByRole('button', { name: 'Approve this decision' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this decision' });
    expect(dialog.textContent).toContain('Another staff member proposed to resolve $600.00 for Ada Lovelace, with the reason “Clear fraud pattern”.');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    expect(await within(dialog).findByText('field should not be empty')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Checked the merchant evidence');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Approve the decision' }));
    expect(await screen.findByText('Approve this decision: done.')).toBeTruthy();
    expect(bodies).toEqual([{ reason: 'Checked the merchant evidence' }]);
  });

  it.each([
    [
      403,
      'four_eyes_required',
      'A second person must approve this decision: not the staff member who proposed it, nor anyone linked to them by grants of back-office access.',
    ],
    [
      409,
      'dispute_state',
      'The case has changed and no longer allows this: someone else may have acted on it just now. It has been reloaded: close this and look again.',
    ],
  ] as const)('a %i %s refusal is said in words, and the case is reloaded', async (status, code, words) => {
    const user = userEvent.setup();
    const pending = { decision: 'customer' as const, by: 's2', reason: 'Clear fraud pattern', at: '2026-11-05T10:00:00.000Z' };
    const { fetchMock } = openCase(staffDispute({ amountCents: 60_000, status: 'investigating', pendingDecision: pending }), {
      [actionPath('decision/approve')]: { status, body: { error: { code, message: 'Refused' } } },
    });
    await user.click(await screen.findByRole('button', { name: 'Approve this decision' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this decision' });
    await user.type(within(dialog).getByLabelText('Reason (kept in the audit log)'), 'Looks right to me');
    await user.click(within(dialog).getByRole('button', { name: 'Review' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Approve the decision' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(words);
    await vi.waitFor(() => expect(fetchMock.mock.calls.filter(([url, init]) => String(url) === casePath && init?.method === 'GET')).toHaveLength(2));
  });

  it('says when the case does not exist', async () => {
    renderApp('/ops/disputes/nope', {
      'GET /api/v1/staff/me': staffMe('admin'),
      'GET /api/v1/staff/disputes/nope': { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'This dispute does not exist' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the disputes' }).getAttribute('href')).toBe('/ops/disputes');
  });
});
