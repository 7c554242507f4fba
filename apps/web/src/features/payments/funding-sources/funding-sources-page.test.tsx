import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fundingSourceMaxLive, fundingSourceMessages, type FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { jsonBodyOf, renderApp, signedIn, validationFailed, type FakeAnswer } from '../../../test/render-app.tsx';
import { apiError, sentRequestOf, stepUpRequired, type SentRequest } from '../../../test/payment-fixtures.ts';
import { failedSource, sourceList, verifiedSource, waitingSource } from './test-fixtures.ts';
import { twoDigitsMessage } from './verify-funding-source-form.tsx';

// The screen is a lazy chunk; loaded once here, no test spends its wait on the import.
beforeAll(() => import('./funding-sources-page.tsx'));

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

const linkedSource: FundingSource = {
  ...waitingSource,
  id: '8e4a0f5b-1c7d-4b6e-8d9f-4a5b6c7d8e9f',
  accountName: 'Ada Lovelace',
  last4: '4321',
  routeNumber: '011000015',
  accountType: 'checking',
  bankName: null,
};

function entryOf(name: RegExp | string): HTMLElement {
  const item = screen.getAllByRole('listitem').find((candidate) => within(candidate).queryByText(name) !== null);
  if (!item) throw new Error(`no entry with ${String(name)}`);
  return item;
}

async function fillLinkForm(user: UserEvent, details: { accountNumber: string; routeNumber: string }) {
  const form = await screen.findByRole('form', { name: 'Link an account' });
  await user.type(within(form).getByRole('textbox', { name: 'Account number' }), details.accountNumber);
  await user.type(within(form).getByRole('textbox', { name: /^Routing number/ }), details.routeNumber);
  return form;
}

// Whole journeys through the app: generous time when the machine is busy running every suite at once.
describe('/deposit/sources', { timeout: 20_000 }, () => {
  it('lists each account at another bank with its type, last four digits, routing number and status in words', async () => {
    renderApp('/deposit/sources', { 'GET /api/v1/me': signedIn, 'GET /api/v1/funding-sources': sourceList(waitingSource, verifiedSource, failedSource) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your other banks' })).toBeTruthy();
    expect(screen.getByText(/two small\s+deposits, and you prove it is yours/)).toBeTruthy();
    await screen.findByText('Checking •••• 0055');

    const verified = entryOf('Checking •••• 0055');
    expect(within(verified).getByRole('heading', { level: 3, name: 'Dana Demo' })).toBeTruthy();
    expect(within(verified).getByText('Verified')).toBeTruthy();
    expect(within(verified).getByText('011000015')).toBeTruthy();
    expect(within(verified).getByRole('link', { name: 'Deposit from Dana Demo, Checking •••• 0055' }).getAttribute('href')).toBe(
      `/deposit?source=${verifiedSource.id}`,
    );
    expect(within(verified).queryByRole('form')).toBeNull();

    const waiting = entryOf('Savings •••• 7788');
    expect(within(waiting).getByText('Waiting for the two small deposits')).toBeTruthy();
    expect(within(waiting).getByText(/Hudson Valley Credit Union/)).toBeTruthy();
    expect(within(waiting).getByRole('form', { name: 'Verify Dana Demo · Savings •••• 7788' })).toBeTruthy();
    expect(within(waiting).getByText(/3 tries left\./)).toBeTruthy();
    expect(within(waiting).queryByRole('link', { name: /^Deposit from/ })).toBeNull();

    const failed = entryOf('Savings •••• 9911');
    expect(within(failed).getByText('Could not be verified')).toBeTruthy();
    expect(within(failed).getByText(/Remove it and link it again/)).toBeTruthy();
    expect(within(failed).queryByRole('form')).toBeNull();
    const header = screen.getByRole('heading', { level: 1 }).closest('header');
    expect(
      within(header as HTMLElement)
        .getByRole('link', { name: 'Deposit' })
        .getAttribute('href'),
    ).toBe('/deposit');
  });

  it('says when there is none yet, and offers to try again when the list cannot be loaded', async () => {
    const user = userEvent.setup({ delay: null });
    let answer = apiError(500, 'internal_error', 'Something went wrong on our side');
    renderApp('/deposit/sources', { 'GET /api/v1/me': signedIn, 'GET /api/v1/funding-sources': () => answer });
    expect(await screen.findByRole('heading', { name: 'We could not load your other banks' }, { timeout: 10_000 })).toBeTruthy();
    // Linking does not need the list: the form is there all the same.
    expect(screen.getByRole('form', { name: 'Link an account' })).toBeTruthy();
    answer = sourceList();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No accounts linked yet' })).toBeTruthy();
  });

  it('checks the fields by the contract’s rules before anything is sent, and fills in the customer’s name', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp('/deposit/sources', { 'GET /api/v1/me': signedIn, 'GET /api/v1/funding-sources': sourceList() });
    const form = await screen.findByRole('form', { name: 'Link an account' });
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'Account holder name' }).value).toBe('Ada Lovelace');
    expect(within(form).getByRole<HTMLInputElement>('radio', { name: 'Checking' }).checked).toBe(true);
    await user.click(within(form).getByRole('button', { name: 'Link account' }));
    expect(await within(form).findAllByText(validationMessages.required)).toHaveLength(2);

    await user.type(within(form).getByRole('textbox', { name: 'Account number' }), '12ab');
    // The ABA checksum fails on the last digit.
    await user.type(within(form).getByRole('textbox', { name: /^Routing number/ }), '011000016');
    await user.click(within(form).getByRole('button', { name: 'Link account' }));
    expect(await within(form).findByText(validationMessages.accountNumberInvalid)).toBeTruthy();
    expect(within(form).getByText(validationMessages.routeNumberInvalid)).toBeTruthy();
    expect(
      within(form)
        .getByRole('textbox', { name: /^Routing number/ })
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('links an account after a code, with one Idempotency-Key for both requests, and says where the two deposits will be found', async () => {
    const user = userEvent.setup({ delay: null });
    const sent: SentRequest[] = [];
    let linked = false;
    let verifiedNow = false;
    const verifiedLink: FundingSource = { ...linkedSource, status: 'verified', attemptsLeft: 0, verifiedAt: '2026-03-04T10:00:00.000Z' };
    renderApp('/deposit/sources', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/funding-sources': () => sourceList(...(linked ? [verifiedNow ? verifiedLink : linkedSource] : [])),
      [`POST /api/v1/funding-sources/${linkedSource.id}/verify`]: () => ({ status: 200, body: { fundingSource: verifiedLink } }),
      'POST /api/v1/funding-sources': (init) => {
        const request = sentRequestOf(init);
        sent.push(request);
        if (request.stepUp !== 'ch-1') return stepUpRequired('ch-1');
        linked = true;
        return { status: 201, body: { fundingSource: linkedSource } };
      },
      'POST /api/v1/step-up/ch-1': { status: 200, body: { verified: true } },
    });
    await screen.findByRole('heading', { name: 'No accounts linked yet' });
    const form = await fillLinkForm(user, { accountNumber: '987654321', routeNumber: '011000015' });
    await user.click(within(form).getByRole('button', { name: 'Link account' }));

    const stepUp = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(stepUp).getByText(/only for linking this account\./)).toBeTruthy();
    await user.click(within(stepUp).getByRole('textbox', { name: 'Digit 1 of 6' }));
    await user.keyboard('123456');

    const notice = await screen.findByText(/Ada Lovelace · Checking •••• 4321 is linked\./);
    const linkedNotice = notice.closest<HTMLElement>('[tabindex="-1"]');
    expect(linkedNotice).not.toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(linkedNotice));
    const inbox = within(linkedNotice as HTMLElement).getByRole('link', { name: 'sandbox inbox at /dev/mail' });
    expect(inbox.getAttribute('href')).toBe('/dev/mail?to=%2B12025550101');
    expect(within(entryOf('Checking •••• 4321')).getByText('Waiting for the two small deposits')).toBeTruthy();
    // Said once, in the news above the list, not again in the entry's form.
    expect(screen.getAllByRole('link', { name: 'sandbox inbox at /dev/mail' })).toHaveLength(1);

    expect(sent).toHaveLength(2);
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey);
    expect(sent[1]?.stepUp).toBe('ch-1');
    expect(sent[0]?.body).toEqual({ accountName: 'Ada Lovelace', accountNumber: '987654321', routeNumber: '011000015', accountType: 'checking' });
    // The form is empty again for another account.
    expect(within(form).getByRole<HTMLInputElement>('textbox', { name: 'Account number' }).value).toBe('');

    // Once verified, the news of the link is old.
    verifiedNow = true;
    const verify = screen.getByRole('form', { name: 'Verify Ada Lovelace · Checking •••• 4321' });
    await user.type(within(verify).getByRole('textbox', { name: 'First amount' }), '07');
    await user.type(within(verify).getByRole('textbox', { name: 'Second amount' }), '32');
    await user.click(within(verify).getByRole('button', { name: 'Verify' }));
    expect(await within(entryOf('Checking •••• 4321')).findByText('Verified')).toBeTruthy();
    expect(screen.queryByText(/is linked\./)).toBeNull();
  });

  it('says the amounts are on the other bank’s statement in production, where nothing is texted', async () => {
    const user = userEvent.setup({ delay: null });
    let linked = false;
    renderApp(
      '/deposit/sources',
      {
        'GET /api/v1/me': signedIn,
        'GET /api/v1/funding-sources': () => sourceList(...(linked ? [linkedSource] : [])),
        'POST /api/v1/funding-sources': () => {
          linked = true;
          return { status: 201, body: { fundingSource: linkedSource } };
        },
      },
      { name: 'Real Bank', mode: 'production' },
    );
    const form = await fillLinkForm(user, { accountNumber: '987654321', routeNumber: '011000015' });
    await user.click(within(form).getByRole('button', { name: 'Link account' }));
    await screen.findByText(/is linked\./);
    expect(screen.getByText(/on your statement at the other bank\. They take 3 to 5 business days/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /sandbox inbox/ })).toBeNull();
  });

  it('puts the server’s field messages under their fields and other refusals in a dialog', async () => {
    const user = userEvent.setup({ delay: null });
    let answer: FakeAnswer = validationFailed({ routeNumber: fundingSourceMessages.ownBank });
    renderApp('/deposit/sources', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/funding-sources': sourceList(),
      'POST /api/v1/funding-sources': () => answer,
    });
    const form = await fillLinkForm(user, { accountNumber: '987654321', routeNumber: '123456780' });
    await user.click(within(form).getByRole('button', { name: 'Link account' }));
    expect(await within(form).findByText(fundingSourceMessages.ownBank)).toBeTruthy();
    expect(document.activeElement).toBe(within(form).getByRole('textbox', { name: /^Routing number/ }));

    answer = apiError(409, 'conflict', fundingSourceMessages.alreadyLinked);
    await user.clear(within(form).getByRole('textbox', { name: /^Routing number/ }));
    await user.type(within(form).getByRole('textbox', { name: /^Routing number/ }), '011000015');
    await user.click(within(form).getByRole('button', { name: 'Link account' }));
    const alert = await screen.findByRole('alertdialog', { name: 'The account was not linked' });
    expect(within(alert).getByText(fundingSourceMessages.alreadyLinked)).toBeTruthy();
  });

  it('offers no link form once the customer has as many live links as allowed', async () => {
    const many = Array.from({ length: fundingSourceMaxLive }, (_, index) => ({
      ...verifiedSource,
      id: `0000000${index}-8f4a-4e3b-9a6c-1d2e3f4a5b6c`,
      last4: `100${index}`,
    }));
    renderApp('/deposit/sources', { 'GET /api/v1/me': signedIn, 'GET /api/v1/funding-sources': sourceList(...many) });
    expect(await screen.findByText(fundingSourceMessages.tooManyLive)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Link an account' })).toBeNull();
  });

  it('verifies with the two amounts in cents, showing the server’s message and the tries left after a wrong pair', async () => {
    const user = userEvent.setup({ delay: null });
    const bodies: unknown[] = [];
    let current: FundingSource = waitingSource;
    renderApp('/deposit/sources', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/funding-sources': () => sourceList(current),
      [`POST /api/v1/funding-sources/${waitingSource.id}/verify`]: (init) => {
        const body = jsonBodyOf(init);
        bodies.push(body);
        if (bodies.length === 1) {
          current = { ...waitingSource, attemptsLeft: 2 };
          return validationFailed({ amountsCents: 'Those amounts are not right. 2 tries left.' });
        }
        current = { ...waitingSource, status: 'verified', attemptsLeft: 0, verifiedAt: '2026-03-04T10:00:00.000Z' };
        return { status: 200, body: { fundingSource: current } };
      },
    });
    const form = await screen.findByRole('form', { name: 'Verify Dana Demo · Savings •••• 7788' });
    const first = within(form).getByRole('textbox', { name: 'First amount' });
    const second = within(form).getByRole('textbox', { name: 'Second amount' });
    expect(first.getAttribute('aria-describedby')).toBeTruthy();

    // One digit after a printed '$0.' would read as tenths: both digits are asked for.
    await user.type(first, '7');
    await user.type(second, '00');
    await user.click(within(form).getByRole('button', { name: 'Verify' }));
    expect(await within(form).findByText(twoDigitsMessage)).toBeTruthy();
    expect(within(form).getByText(fundingSourceMessages.amountsInvalid)).toBeTruthy();
    expect(bodies).toEqual([]);

    await user.clear(first);
    await user.type(first, '07');
    await user.clear(second);
    await user.type(second, '31');
    await user.click(within(form).getByRole('button', { name: 'Verify' }));
    expect(await within(form).findByText('Those amounts are not right. 2 tries left.')).toBeTruthy();
    expect(await within(form).findByText(/In either order\. 2 tries left\.$/)).toBeTruthy();
    expect(document.activeElement).toBe(first);

    await user.clear(second);
    await user.type(second, '32');
    await user.click(within(form).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Dana Demo · Savings •••• 7788 is verified. You can deposit from it now.')).toBeTruthy();
    const entry = entryOf('Savings •••• 7788');
    expect(within(entry).getByText('Verified')).toBeTruthy();
    expect(within(entry).queryByRole('form')).toBeNull();
    expect(bodies).toEqual([{ amountsCents: [7, 31] }, { amountsCents: [7, 32] }]);
  });

  it('removes an account only after the customer confirms, saying that a deposit on its way still clears', async () => {
    const user = userEvent.setup({ delay: null });
    const { fetchMock } = renderApp('/deposit/sources', {
      'GET /api/v1/me': signedIn,
      'GET /api/v1/funding-sources': () => sourceList(...(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE') ? [] : [verifiedSource])),
      [`DELETE /api/v1/funding-sources/${verifiedSource.id}`]: { status: 204 },
    });
    const remove = await screen.findByRole('button', { name: 'Remove Dana Demo, Checking •••• 0055' });
    await user.click(remove);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);

    await user.click(remove);
    const dialog = screen.getByRole('dialog', { name: 'Remove this account?' });
    expect(within(dialog).getByText('Dana Demo · Checking •••• 0055 will no longer be offered for deposits.')).toBeTruthy();
    expect(within(dialog).getByText(/A deposit from it that is still on its way is not affected: it clears as usual\./)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByRole('heading', { name: 'No accounts linked yet' })).toBeTruthy();
    expect(screen.getByText('Dana Demo · Checking •••• 0055 was removed')).toBeTruthy();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE').map(([url]) => String(url))).toEqual([
      `/api/v1/funding-sources/${verifiedSource.id}`,
    ]);
  });
});
