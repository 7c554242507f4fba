import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BankStatement, ReconciliationException } from '@strongroom/contracts/books.ts';
import { rolePermissions } from '@strongroom/contracts/staff.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, type FakeAnswer, type FakeApi } from '../../../test/render-app.tsx';
import { staffMe } from '../disputes/test-fixtures.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const statement: BankStatement = {
  id: 'st1',
  fileName: 'settlement-2026-11-27.bai',
  sender: 'SANDBOXSETTLE',
  asOfDate: '2026-11-27',
  lineCount: 12,
  matchedCount: 11,
  exceptionCount: 1,
  importedBy: 'rail-simulator',
  importedByEmail: null,
  importedAt: '2026-11-28T06:00:00.000Z',
};

function exception(overrides: Partial<ReconciliationException> = {}): ReconciliationException {
  return {
    id: '00000000-0000-4000-8000-0000000e0001',
    kind: 'unmatched_statement_line',
    day: '2026-11-27',
    settlementAccount: 'settlementAch',
    settlementAccountName: 'Settlement account: ACH (Federal Reserve)',
    direction: 'debit',
    amountCents: 1_500,
    statementLine: { typeCode: '699', amountCents: 1_500, bankReference: 'FED0001', customerReference: 'NOMATCH-1', text: 'Service charge' },
    ledgerTransfer: null,
    status: 'open',
    resolution: null,
    resolutionReason: null,
    resolvedBy: null,
    resolvedByEmail: null,
    resolvedAt: null,
    matchedExceptionId: null,
    adjustmentId: null,
    createdAt: '2026-11-28T06:00:00.000Z',
    ...overrides,
  };
}

const ledgerSide = exception({
  id: '00000000-0000-4000-8000-0000000e0002',
  kind: 'unmatched_ledger_entry',
  statementLine: null,
  ledgerTransfer: { id: 't1', code: 12, description: 'ACH payment to Acme Utilities', amountCents: 1_500, postedOn: '2026-11-27' },
});

function pageApi(open: ReconciliationException[], extra: FakeApi = {}): FakeApi {
  return {
    'GET /api/v1/staff/me': staffMe('finance'),
    'GET /api/v1/staff/reconciliation/statements': { status: 200, body: { items: [statement] } },
    'GET /api/v1/staff/reconciliation/exceptions': { status: 200, body: { items: open, nextCursor: null } },
    ...extra,
  };
}

const failed = (code: string, message: string, status: number): FakeAnswer => ({ status, body: { error: { code, message } } });
const ok = (body: unknown): FakeAnswer => ({ status: 200, body });

describe('/ops/reconciliation', () => {
  it('lists the statements and the open exceptions with their facts: kind, day, account, direction, amount, references and the ledger’s description', async () => {
    renderApp('/ops/reconciliation', pageApi([exception(), ledgerSide]));
    const statements = await screen.findByRole('table', { name: 'Statements imported, newest first' });
    expect(within(statements).getAllByRole('row')[1]?.textContent).toContain('settlement-2026-11-27.bai');
    expect(within(statements).getAllByRole('row')[1]?.textContent).toContain('Nov 27, 2026');
    const queue = await screen.findByRole('table', { name: 'Open exceptions, oldest first' });
    const [, line, entry] = within(queue).getAllByRole('row');
    expect(line?.textContent).toContain('Statement line without a ledger entry');
    expect(line?.textContent).toContain('Settlement account: ACH (Federal Reserve)');
    expect(line?.textContent).toContain('Money out');
    expect(line?.textContent).toContain('$15.00');
    expect(line?.textContent).toContain('bank ref. FED0001, customer ref. NOMATCH-1; “Service charge”');
    expect(entry?.textContent).toContain('Ledger entry without a statement line');
    expect(entry?.textContent).toContain('Ledger entry: ACH payment to Acme Utilities, booked on Nov 27, 2026');
  });

  it('names who imported each statement and who resolved each exception: their email, "you", or the system in words', async () => {
    const user = userEvent.setup();
    const byStaff = {
      ...statement,
      id: 'st2',
      fileName: 'by-hand.bai',
      importedBy: '00000000-0000-4000-8000-00000000f002',
      importedByEmail: 'second@bank.test',
    };
    const byMe = { ...statement, id: 'st3', fileName: 'mine.bai', importedBy: 's1', importedByEmail: 'finance@bank.test' };
    const byCli = { ...statement, id: 'st4', fileName: 'cli.bai', importedBy: 'ops-cli', importedByEmail: null };
    const resolved = (id: string, overrides: Partial<ReconciliationException>) =>
      exception({ id, status: 'resolved', resolution: 'matched', resolvedAt: '2026-11-28T09:00:00.000Z', ...overrides });
    renderApp(
      '/ops/reconciliation',
      pageApi([], {
        'GET /api/v1/staff/reconciliation/statements': ok({ items: [statement, byStaff, byMe, byCli] }),
        // The fake API ignores the query string: the resolved ones, whichever status is asked for.
        'GET /api/v1/staff/reconciliation/exceptions': ok({
          items: [
            resolved('00000000-0000-4000-8000-0000000e0011', {
              resolvedBy: '00000000-0000-4000-8000-00000000f002',
              resolvedByEmail: 'second@bank.test',
              resolutionReason: 'Same payment',
            }),
            resolved('00000000-0000-4000-8000-0000000e0012', {
              resolvedBy: null,
              resolvedByEmail: null,
              resolutionReason: 'matched by the statement of 2026-11-28',
            }),
          ],
          nextCursor: null,
        }),
      }),
    );
    const statements = await screen.findByRole('table', { name: 'Statements imported, newest first' });
    const [, simulator, staff, mine, cli] = within(statements).getAllByRole('row');
    expect(simulator?.textContent).toContain('By the settlement bank’s simulator');
    expect(staff?.textContent).toContain('By second@bank.test');
    expect(mine?.textContent).toContain('By you');
    expect(cli?.textContent).toContain('By the ops command line');
    await user.selectOptions(screen.getByLabelText('Show'), 'resolved');
    const queue = await screen.findByRole('table', { name: 'Resolved exceptions' });
    const [, byHand, byImport] = within(queue).getAllByRole('row');
    expect(byHand?.textContent).toContain('Resolved by second@bank.test: Same payment');
    expect(byImport?.textContent).toContain('Resolved: matched by the statement of 2026-11-28');
  });

  it('matches a statement line with the open ledger entry of the same account, direction and amount, with a reason', async () => {
    const user = userEvent.setup();
    let sent: unknown;
    renderApp(
      '/ops/reconciliation',
      pageApi([exception(), ledgerSide, exception({ id: '00000000-0000-4000-8000-0000000e0003', kind: 'unmatched_ledger_entry', amountCents: 1_501 })], {
        [`POST /api/v1/staff/reconciliation/exceptions/${exception().id}/resolve`]: (init) => {
          sent = jsonBodyOf(init);
          return { status: 200, body: { exception: exception({ status: 'resolved', resolution: 'matched' }) } };
        },
      }),
    );
    const queue = await screen.findByRole('table', { name: 'Open exceptions, oldest first' });
    await user.click(within(queue).getAllByRole('button', { name: 'Resolve the $15.00 exception of Nov 27, 2026' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Resolve the $15.00 exception of Nov 27, 2026' });
    const candidates = within(within(dialog).getByLabelText('Match with')).getAllByRole('option');
    expect(candidates.map((option) => option.textContent)).toEqual(['Nov 27, 2026, $15.00, ledger entry: ACH payment to Acme Utilities']);
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Same payment, the bank trimmed the reference');
    await user.click(within(dialog).getByRole('button', { name: 'Match and resolve' }));
    expect(await within(dialog).findByText('The $15.00 exception is resolved.')).toBeTruthy();
    expect(sent).toEqual({ resolution: 'matched', matchWith: ledgerSide.id, reason: 'Same payment, the bank trimmed the reference' });
  });

  it('books an adjusting entry; says when it waits for a second approval (202), and when someone resolved it first (409)', async () => {
    const user = userEvent.setup();
    let answer: FakeAnswer = { status: 202, body: { exception: exception({ adjustmentId: 'ad1' }) } };
    let sent: unknown;
    renderApp(
      '/ops/reconciliation',
      pageApi([exception()], {
        [`POST /api/v1/staff/reconciliation/exceptions/${exception().id}/resolve`]: (init) => {
          sent = jsonBodyOf(init);
          return answer;
        },
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Resolve the $15.00 exception of Nov 27, 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve the $15.00 exception of Nov 27, 2026' });
    expect((within(dialog).getByLabelText('Resolve by') as HTMLSelectElement).value).toBe('adjusted');
    expect(within(dialog).getByText(/No open exception of the other side/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Bank service charge not booked');
    await user.click(within(dialog).getByRole('button', { name: 'Book an adjusting entry of $15.00' }));
    expect(await within(dialog).findByText(/waits for a second finance member's approval; the exception resolves when it posts/)).toBeTruthy();
    expect(sent).toEqual({ resolution: 'adjusted', reason: 'Bank service charge not booked' });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    answer = failed('already_resolved', 'This exception is resolved already', 409);
    await user.click(await screen.findByRole('button', { name: 'Resolve the $15.00 exception of Nov 27, 2026' }));
    const again = await screen.findByRole('dialog', { name: 'Resolve the $15.00 exception of Nov 27, 2026' });
    await user.type(within(again).getByLabelText(/^Reason/), 'Bank service charge not booked');
    await user.click(within(again).getByRole('button', { name: 'Book an adjusting entry of $15.00' }));
    expect(await within(again).findByText(/Someone resolved this exception just now/)).toBeTruthy();
  });

  it('imports a BAI2 file read in the browser as JSON, and shows a file imported before (409) and a malformed one (400)', async () => {
    const user = userEvent.setup();
    // A bank's file ends its records with CRLF: the console sends them as line feeds (JSON text refuses a carriage return).
    const content = '01,SENDER,RECEIVER,261128,0600,1,,,2/\r\n99,0,1,2/\r\n';
    const sentContent = '01,SENDER,RECEIVER,261128,0600,1,,,2/\n99,0,1,2/';
    let sent: unknown;
    let answer: FakeAnswer = { status: 201, body: { statement } };
    renderApp(
      '/ops/reconciliation',
      pageApi([], {
        'POST /api/v1/staff/reconciliation/statements': (init) => {
          sent = jsonBodyOf(init);
          return answer;
        },
      }),
    );
    expect(await screen.findByText('No open exceptions')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Import the statement' }));
    expect(await screen.findByText('choose a file')).toBeTruthy();
    const input = screen.getByLabelText('BAI2 statement file');
    await user.upload(input, new File([content], 'settlement.bai', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Import the statement' }));
    // An import is a staff action: it needs a reason, kept in the audit log.
    const reason = screen.getByLabelText('Reason (kept in the audit log)');
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toBeUndefined();
    await user.type(reason, 'Daily statement');
    await user.click(screen.getByRole('button', { name: 'Import the statement' }));
    expect(await screen.findByText('Imported settlement-2026-11-27.bai (Nov 27, 2026): 12 lines, 11 matched, 1 in the exceptions queue.')).toBeTruthy();
    expect(sent).toEqual({ fileName: 'settlement.bai', content: sentContent, reason: 'Daily statement' });
    answer = failed('already_imported', 'This statement file was imported before', 409);
    await user.upload(input, new File([content], 'settlement.bai', { type: 'text/plain' }));
    await user.type(reason, 'Sent again by the bank');
    await user.click(screen.getByRole('button', { name: 'Import the statement' }));
    expect(await screen.findByText('This statement file was imported before')).toBeTruthy();
    answer = {
      status: 400,
      body: {
        error: {
          code: 'validation_failed',
          message: 'The statement was not imported: line 3: a 16 record needs an amount',
          fields: { content: 'line 3: a 16 record needs an amount' },
        },
      },
    };
    await user.click(screen.getByRole('button', { name: 'Import the statement' }));
    expect(await screen.findByText('The statement was not imported: line 3: a 16 record needs an amount')).toBeTruthy();
  });

  it('asks for the resolved exceptions when chosen, and says when the queue could not be loaded', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/ops/reconciliation', pageApi([]));
    await screen.findByText('No open exceptions');
    await user.selectOptions(screen.getByLabelText('Show'), 'resolved');
    expect(await screen.findByText('No resolved exceptions')).toBeTruthy();
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/exceptions'))).toEqual([
      '/api/v1/staff/reconciliation/exceptions?status=open',
      '/api/v1/staff/reconciliation/exceptions?status=resolved',
    ]);
    cleanup();
    queryClient.clear();
    renderApp(
      '/ops/reconciliation',
      pageApi([], { 'GET /api/v1/staff/reconciliation/exceptions': failed('internal_error', 'Something went wrong on our side', 500) }),
    );
    expect(await screen.findByText('The exceptions could not be loaded', undefined, { timeout: 10_000 })).toBeTruthy();
  });

  it('is not offered to support or operations, and their opening it asks nothing', async () => {
    for (const role of ['support', 'operations'] as const) {
      expect(rolePermissions[role]).not.toContain('reconciliation.manage');
      const { fetchMock } = renderApp('/ops/reconciliation', { 'GET /api/v1/staff/me': staffMe(role) });
      expect(await screen.findByText(`Your role (${role}) cannot use this page: ask an administrator if you need it.`)).toBeTruthy();
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/staff/reconciliation'))).toBe(false);
      cleanup();
      queryClient.clear();
    }
  });
});
