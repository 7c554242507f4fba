import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp } from '../../test/render-app.tsx';
import { apiError } from '../../test/payment-fixtures.ts';
import { evidenceMessages } from './evidence-check.ts';
import { disputeApi, disputeDetailOf, disputeOf, fileOf } from './test-fixtures.ts';

beforeAll(() => import('./dispute-detail-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const dispute = disputeOf({ status: 'investigating', cardReplaced: true });
const path = `/disputes/${dispute.id}`;
const detailRoute = `GET /api/v1/disputes/${dispute.id}`;
const letters = [
  { id: 'a0a0a0a0-0000-4000-8000-000000000001', kind: 'acknowledgement', createdAt: '2026-03-09T14:00:00.000Z' },
  { id: 'a0a0a0a0-0000-4000-8000-000000000002', kind: 'information_request', createdAt: '2026-03-11T14:00:00.000Z' },
] as const;
const asked = disputeDetailOf(dispute, {
  events: [
    { kind: 'submitted', text: 'You reported this transaction.', at: '2026-03-09T14:00:00.000Z' },
    { kind: 'information_requested', text: 'Did anyone else have your card on 2 March?', at: '2026-03-11T14:00:00.000Z' },
  ],
  letters: [...letters],
  evidence: [{ id: 'e1', fileName: 'statement.pdf', contentType: 'application/pdf', byteSize: 300_000, createdAt: '2026-03-09T14:05:00.000Z' }],
});

describe('/disputes/:id', { timeout: 20_000 }, () => {
  it('shows the status and dates, what happened, the letters to download and the evidence', async () => {
    renderApp(path, disputeApi({ [detailRoute]: { status: 200, body: asked } }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Corner Grocer · Groceries' })).toBeTruthy();
    expect(screen.getByText('Being investigated')).toBeTruthy();
    expect(screen.getByText('We finish by Fri 5 Jun 2026.')).toBeTruthy();
    expect(screen.getByText('Frozen, and a new one ordered')).toBeTruthy();
    const timeline = screen.getByRole('region', { name: 'What has happened' });
    expect(
      within(timeline)
        .getAllByRole('listitem')
        .map((item) => item.firstChild?.textContent),
    ).toEqual(['You reported the problem', 'We asked you a question']);
    const letterLinks = within(screen.getByRole('region', { name: 'Letters' })).getAllByRole('link');
    expect(letterLinks.map((link) => link.getAttribute('href'))).toEqual(letters.map((letter) => `/api/v1/disputes/${dispute.id}/letters/${letter.id}`));
    expect(letterLinks[0]?.textContent).toBe('We received your report (PDF)');
    const evidence = within(screen.getByRole('region', { name: 'Your evidence' })).getByRole('link', { name: 'statement.pdf' });
    expect(evidence.getAttribute('href')).toBe(`/api/v1/disputes/${dispute.id}/evidence/e1`);
    expect(screen.getByLabelText(/^Add evidence/)).toBeTruthy();
  });

  it('answers the bank’s question while it is the last word, refusing an answer under 10 characters', async () => {
    const user = userEvent.setup({ delay: null });
    const answers: unknown[] = [];
    renderApp(
      path,
      disputeApi({
        [detailRoute]: { status: 200, body: asked },
        [`POST /api/v1/disputes/${dispute.id}/information`]: (init) => {
          answers.push(jsonBodyOf(init));
          return { status: 200, body: { dispute } };
        },
      }),
    );
    const question = await screen.findByRole('region', { name: 'Answer the bank’s question' });
    expect(within(question).getByText('Did anyone else have your card on 2 March?')).toBeTruthy();
    await user.type(within(question).getByRole('textbox', { name: 'Your answer' }), 'No');
    await user.click(within(question).getByRole('button', { name: 'Send the answer' }));
    expect(await within(question).findByText('tell us what happened in at least 10 characters')).toBeTruthy();
    expect(answers).toHaveLength(0);
    await user.type(within(question).getByRole('textbox', { name: 'Your answer' }), ', the card never left my wallet.');
    await user.click(within(question).getByRole('button', { name: 'Send the answer' }));
    expect(await screen.findByText('Your answer is sent.')).toBeTruthy();
    expect(answers).toEqual([{ text: 'No, the card never left my wallet.' }]);
  });

  it('does not ask for an answer once the customer answered', async () => {
    const answered = { ...asked, events: [...asked.events, { kind: 'information_given', text: 'No one.', at: '2026-03-12T09:00:00.000Z' }] };
    renderApp(path, disputeApi({ [detailRoute]: { status: 200, body: answered } }));
    expect(await screen.findByText('You answered')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Answer the bank’s question' })).toBeNull();
  });

  it('adds evidence to an open report, showing a file the bank refused next to its name', async () => {
    const user = userEvent.setup({ delay: null });
    const names: string[] = [];
    renderApp(
      path,
      disputeApi({
        [detailRoute]: { status: 200, body: asked },
        [`POST /api/v1/disputes/${dispute.id}/evidence`]: (init) => {
          const file = init?.body instanceof FormData ? init.body.get('file') : null;
          names.push(file instanceof File ? file.name : '');
          return names.length === 1
            ? {
                status: 201,
                body: { evidence: { id: 'e2', fileName: 'photo.jpg', contentType: 'image/jpeg', byteSize: 2_048, createdAt: '2026-03-12T09:00:00.000Z' } },
              }
            : apiError(413, 'payload_too_large', 'Too large');
        },
      }),
    );
    await user.upload(await screen.findByLabelText(/^Add evidence/), [fileOf('photo.jpg', 'image/jpeg'), fileOf('scan.pdf', 'application/pdf')]);
    await user.click(screen.getByRole('button', { name: 'Send the 2 files' }));
    const refused = await screen.findByRole('list', { name: 'Files not added' });
    expect(within(refused).getByRole('listitem').textContent).toBe(`scan.pdfNot added: ${evidenceMessages.tooLarge}`);
    expect(names).toEqual(['photo.jpg', 'scan.pdf']);
  });

  it('says a report with five files can take no more', async () => {
    const full = { ...asked, evidence: ['1', '2', '3', '4', '5'].map((id) => ({ ...asked.evidence[0], id, fileName: `file-${id}.pdf` })) };
    renderApp(path, disputeApi({ [detailRoute]: { status: 200, body: full } }));
    expect(await screen.findByText('You have sent the most files a report can have (5).')).toBeTruthy();
    expect(screen.queryByLabelText(/^Add evidence/)).toBeNull();
  });

  it('withdraws the report only after a confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    let withdrawals = 0;
    renderApp(
      path,
      disputeApi({
        [detailRoute]: { status: 200, body: asked },
        [`POST /api/v1/disputes/${dispute.id}/withdraw`]: () => {
          withdrawals += 1;
          return { status: 200, body: { dispute: { ...dispute, status: 'withdrawn' } } };
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Withdraw this report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw this report?' });
    expect(within(dialog).getByText(/you can report the transaction again/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Keep the report' }));
    expect(withdrawals).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Withdraw this report' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Withdraw this report?' })).getByRole('button', { name: 'Withdraw the report' }));
    expect(await screen.findByText('Your report is withdrawn.')).toBeTruthy();
    expect(withdrawals).toBe(1);
  });

  it('says in words when the report no longer allows withdrawing (dispute_state)', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      path,
      disputeApi({ [detailRoute]: { status: 200, body: asked }, [`POST /api/v1/disputes/${dispute.id}/withdraw`]: apiError(409, 'dispute_state', 'decided') }),
    );
    await user.click(await screen.findByRole('button', { name: 'Withdraw this report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Withdraw this report?' });
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw the report' }));
    expect(await within(dialog).findByText(/This report has changed and no longer allows that/)).toBeTruthy();
  });

  it('offers no withdrawal, question or new evidence once the bank decided', async () => {
    const decided = { ...asked, dispute: { ...dispute, status: 'denied', reversalOn: '2026-04-20', provisionalCreditCents: 4_999 } };
    renderApp(path, disputeApi({ [detailRoute]: { status: 200, body: decided } }));
    expect(await screen.findByText('Not upheld')).toBeTruthy();
    expect(screen.getByText('The provisional credit of $49.99 is taken back on Mon 20 Apr 2026.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Withdraw this report' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Answer the bank’s question' })).toBeNull();
    expect(screen.queryByLabelText(/^Add evidence/)).toBeNull();
  });

  it('offers to report a withdrawn report’s transaction again', async () => {
    const withdrawn = { ...asked, dispute: { ...dispute, status: 'withdrawn' } };
    renderApp(path, disputeApi({ [detailRoute]: { status: 200, body: withdrawn } }));
    expect((await screen.findByRole('link', { name: 'Report this transaction again' })).getAttribute('href')).toBe(
      `/disputes/new?transferId=${dispute.transferId}`,
    );
    expect(screen.queryByRole('button', { name: 'Withdraw this report' })).toBeNull();
  });

  it('answers another customer’s report, or a missing one, with "not found"', async () => {
    renderApp(path, disputeApi({ [detailRoute]: apiError(404, 'not_found', 'Not found') }));
    expect(await screen.findByRole('heading', { name: 'We could not find this report' })).toBeTruthy();
  });
});
