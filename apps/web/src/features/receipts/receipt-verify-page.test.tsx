import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, unauthenticated } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const genuine = {
  reference: 'RCPT-7F3K-92QZ',
  genuine: true,
  amountCents: 123_400,
  status: 'completed',
  date: '2026-03-14T12:00:00.000Z',
  kind: 'external',
  fromAccount: '••••7155',
  toAccount: '••••6789',
};

describe('/receipts/verify/:reference', () => {
  it('confirms a genuine receipt with its amount, date, status, kind and masked accounts, to a visitor who is not signed in', async () => {
    const { fetchMock } = renderApp('/receipts/verify/RCPT-7F3K-92QZ', {
      'GET /api/v1/me': unauthenticated,
      'GET /api/v1/receipts/verify/RCPT-7F3K-92QZ': { status: 200, body: genuine },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Genuine receipt' })).toBeTruthy();
    const facts = Object.fromEntries(screen.getAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]));
    expect(facts).toEqual({
      Reference: 'RCPT-7F3K-92QZ',
      Amount: '$1,234.00',
      Date: expect.stringMatching(/^Mar 1[45], 2026/),
      Status: 'Completed',
      Kind: 'Transfer to another bank',
      'From account': '••••7155',
      'To account': '••••6789',
    });
    // The public header and footer, and nothing of the signed-in area.
    expect(screen.getAllByRole('link', { name: /online banking/i }).length).toBeGreaterThan(0);
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/accounts'))).toBe(false);
  });

  it('leaves out an account the receipt does not have, such as the source of a deposit', async () => {
    renderApp('/receipts/verify/RCPT-DEP-0001', {
      'GET /api/v1/receipts/verify/RCPT-DEP-0001': { status: 200, body: { ...genuine, reference: 'RCPT-DEP-0001', kind: 'deposit', fromAccount: null } },
    });
    await screen.findByRole('heading', { level: 1, name: 'Genuine receipt' });
    expect(screen.queryByText('From account')).toBeNull();
    expect(screen.getByText('Deposit')).toBeTruthy();
  });

  it('says clearly that there is no receipt with an unknown reference', async () => {
    renderApp('/receipts/verify/FAKE-0000', {
      'GET /api/v1/receipts/verify/FAKE-0000': { status: 404, body: { error: { code: 'not_found', message: 'No such receipt' } } },
    });
    const heading = await screen.findByRole('heading', { level: 1, name: 'We have no receipt with this reference' });
    expect(within(heading.parentElement as HTMLElement).getByText('FAKE-0000')).toBeTruthy();
    expect(screen.queryByText('Genuine receipt')).toBeNull();
  });

  it('does not call a receipt fake when the bank could not be asked, and offers to try again', async () => {
    renderApp('/receipts/verify/RCPT-7F3K-92QZ', {
      'GET /api/v1/receipts/verify/RCPT-7F3K-92QZ': {
        status: 429,
        body: { error: { code: 'rate_limited', message: 'Too many checks, try again in a minute' } },
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'We could not check this receipt just now' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Too many checks, try again in a minute');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
