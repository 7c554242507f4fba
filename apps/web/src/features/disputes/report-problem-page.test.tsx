import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { maxDisputeEvidenceBytes } from '@strongroom/contracts/disputes.ts';
import { queryClient } from '../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeAnswer } from '../../test/render-app.tsx';
import { apiError } from '../../test/payment-fixtures.ts';
import { evidenceMessages } from './evidence-check.ts';
import { cardPurchase, depositLine, disputeApi, disputeOf, feeLine, fileOf, transactionRoute, transferOut } from './test-fixtures.ts';

beforeAll(() => import('./report-problem-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const reportPath = (transferId: string) => `/disputes/new?transferId=${transferId}`;
const dispute = disputeOf();

async function describeProblem(user: ReturnType<typeof userEvent.setup>, reason: string, text: string) {
  await user.click(await screen.findByRole('radio', { name: reason }));
  await user.type(screen.getByRole('textbox', { name: /^What happened\?/ }), text);
}

describe('/disputes/new', { timeout: 20_000 }, () => {
  it('is offered in a History line’s details for a card purchase, and not for a fee', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      '/transaction-history',
      disputeApi({
        'GET /api/v1/transactions': { status: 200, body: { items: [cardPurchase, feeLine], nextCursor: null } },
        ...transactionRoute(cardPurchase),
        ...transactionRoute(feeLine),
      }),
    );
    expect((await screen.findByRole('link', { name: 'Your reported problems' })).getAttribute('href')).toBe('/disputes');
    await user.click(await screen.findByRole('button', { name: /Corner Grocer/ }));
    const card = screen.getByRole('dialog', { name: 'Details' });
    expect(within(card).getByRole('link', { name: 'Report a problem with this transaction' }).getAttribute('href')).toBe(reportPath(cardPurchase.transferId));
    await user.click(within(card).getByRole('button', { name: 'Back to history' }));
    await user.click(await screen.findByRole('button', { name: /Monthly maintenance fee/ }));
    expect(within(screen.getByRole('dialog', { name: 'Details' })).queryByRole('link', { name: /Report a problem/ })).toBeNull();
  });

  it('refuses a missing reason and a description under 10 characters, in words, and sends nothing', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp(reportPath(cardPurchase.transferId), disputeApi(transactionRoute(cardPurchase)));
    expect(await screen.findByText('Corner Grocer · Groceries')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Review the report' }));
    expect(await screen.findByText('choose what went wrong')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /^What happened\?/ }), 'Not me');
    await user.click(screen.getByRole('button', { name: 'Review the report' }));
    expect(await screen.findByText('tell us what happened in at least 10 characters')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('refuses a file that is not an image or a PDF, and one over 5 MB, when picked, and keeps the good one', async () => {
    const user = userEvent.setup({ delay: null, applyAccept: false });
    renderApp(reportPath(cardPurchase.transferId), disputeApi(transactionRoute(cardPurchase)));
    const input = await screen.findByLabelText(/^Evidence/);
    await user.upload(input, [
      fileOf('notes.txt', 'text/plain'),
      fileOf('huge.pdf', 'application/pdf', maxDisputeEvidenceBytes + 1),
      fileOf('receipt.png', 'image/png'),
    ]);
    expect(screen.getByText(`notes.txt: ${evidenceMessages.wrongType} huge.pdf: ${evidenceMessages.tooLarge}`)).toBeTruthy();
    const kept = screen.getByRole('list', { name: 'Files to send' });
    expect(within(kept).getAllByRole('listitem')).toHaveLength(1);
    expect(within(kept).getByText('receipt.png')).toBeTruthy();
  });

  it('offers to freeze and replace the card only for a card purchase reported as not made by the customer, checked by default', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(reportPath(cardPurchase.transferId), disputeApi(transactionRoute(cardPurchase)));
    await user.click(await screen.findByRole('radio', { name: 'The amount is wrong' }));
    expect(screen.queryByRole('checkbox', { name: 'Freeze this card and send me a new one' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'I did not make or allow this' }));
    expect(screen.getByRole('checkbox', { name: 'Freeze this card and send me a new one' })).toHaveProperty('checked', true);
    expect(screen.getByText(/We freeze the card at once/)).toBeTruthy();
  });

  it('does not offer to replace a card for a transfer reported as unauthorized', async () => {
    const user = userEvent.setup({ delay: null });
    renderApp(reportPath(transferOut.transferId), disputeApi(transactionRoute(transferOut)));
    await user.click(await screen.findByRole('radio', { name: 'I did not make or allow this' }));
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('lets a deposit (found as the line in) be reported only as having come in short', async () => {
    renderApp(
      reportPath(depositLine.transferId),
      disputeApi({ [`GET /api/v1/transactions/${depositLine.transferId}%3Aout`]: apiError(404, 'not_found', 'Not found'), ...transactionRoute(depositLine) }),
    );
    await screen.findByText('From my other bank');
    expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['The amount is wrong']);
  });

  it('reviews the report with what happens next, sends it and each file, and shows the bank’s dates and a refused file next to its name', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: unknown[] = [];
    const uploads: FormData[] = [];
    const evidenceAnswers: FakeAnswer[] = [
      { status: 201, body: { evidence: { id: 'e1', fileName: 'receipt.png', contentType: 'image/png', byteSize: 1_024, createdAt: dispute.createdAt } } },
      apiError(415, 'unsupported_media_type', 'The file is not a PNG, a JPEG or a PDF'),
    ];
    renderApp(
      reportPath(cardPurchase.transferId),
      disputeApi({
        ...transactionRoute(cardPurchase),
        'POST /api/v1/disputes': (init) => {
          sent.push(jsonBodyOf(init));
          return { status: 201, body: { dispute: { ...dispute, cardReplaced: true } } };
        },
        [`POST /api/v1/disputes/${dispute.id}/evidence`]: (init) => {
          if (init?.body instanceof FormData) uploads.push(init.body);
          return evidenceAnswers[uploads.length - 1] ?? apiError(500, 'internal_error', 'x');
        },
      }),
    );
    await describeProblem(user, 'I did not make or allow this', 'I have never shopped at Corner Grocer.');
    await user.upload(screen.getByLabelText(/^Evidence/), [fileOf('receipt.png', 'image/png'), fileOf('fake.pdf', 'application/pdf')]);
    await user.click(screen.getByRole('button', { name: 'Review the report' }));

    expect(await screen.findByRole('heading', { name: 'Check your report' })).toBe(document.activeElement);
    expect(screen.getByText('Frozen now, and a new one sent to you')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'What happens next' })).toBeTruthy();
    expect(sent).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Send the report' }));

    expect(await screen.findByRole('heading', { name: 'Your report is sent' })).toBeTruthy();
    expect(sent).toEqual([
      { transferId: cardPurchase.transferId, reason: 'unauthorized', description: 'I have never shopped at Corner Grocer.', replaceCard: true },
    ]);
    expect(uploads.map((form) => form.get('file')).map((file) => (file instanceof File ? file.name : null))).toEqual(['receipt.png', 'fake.pdf']);
    expect(screen.getByText('If we have not finished by Mon 23 Mar 2026, we give you provisional credit of $49.99 by then.')).toBeTruthy();
    expect(screen.getByText('We finish by Fri 5 Jun 2026.')).toBeTruthy();
    expect(screen.getByText('Your card is frozen and a new one is on its way.')).toBeTruthy();
    const files = screen.getByRole('list', { name: 'Your files' });
    const [good, bad] = within(files).getAllByRole('listitem');
    expect(good?.textContent).toBe('receipt.pngSent');
    expect(bad?.textContent).toBe(`fake.pdfNot sent: ${evidenceMessages.wrongType}`);
    expect(screen.getByRole('link', { name: 'See your report' }).getAttribute('href')).toBe(`/disputes/${dispute.id}`);
  });

  it.each([
    ['already_disputed', 409, 'You have already reported a problem with this transaction.'],
    ['dispute_window_passed', 422, 'It is too late to report this transaction'],
    ['not_disputable', 422, 'This transaction cannot be reported as a problem.'],
  ])('says in words why the report was refused (%s), with the bank’s particulars', async (code, status, words) => {
    const user = userEvent.setup({ delay: null });
    renderApp(
      reportPath(transferOut.transferId),
      disputeApi({ ...transactionRoute(transferOut), 'POST /api/v1/disputes': apiError(status, code, `The bank says: ${code}`) }),
    );
    await describeProblem(user, 'The amount is wrong', 'I sent $1,200.00 but was charged more.');
    await user.click(screen.getByRole('button', { name: 'Review the report' }));
    await user.click(await screen.findByRole('button', { name: 'Send the report' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(words);
    expect(alert.textContent).toContain(`The bank says: ${code}`);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Your report is sent' })).toBeNull());
  });
});
