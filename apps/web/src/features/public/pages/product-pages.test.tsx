import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seedProductList, seedProducts } from '../../../test/product-fixtures.ts';
import { renderApp, type FakeAnswer } from '../../../test/render-app.tsx';
import { resetProductsCache } from '../api/products.ts';

// The web tests share modules between files: each test starts a new visit, with nothing cached.
beforeEach(() => resetProductsCache());

afterEach(() => {
  vi.unstubAllGlobals();
  resetProductsCache();
});

const products = (body: unknown = seedProductList): FakeAnswer => ({ status: 200, body });

function offer(name: string): HTMLElement {
  const heading = screen.getByRole('heading', { level: 2, name });
  const card = heading.closest('li');
  if (!card) throw new Error(`no card for ${name}`);
  return card;
}

describe('the public pages print the catalogue (GET /products, issue 32 item 1)', () => {
  it('/current shows each checking tier with its fee, its waiver and the date the rates and fees are of', async () => {
    renderApp('/current', { 'GET /api/v1/products': products() });
    expect(await screen.findByText('November 30, 2026')).toBeTruthy();
    expect(screen.getByText(/Rates and fees as of/)).toBeTruthy();
    expect(within(offer('Easy Checking')).getByText('$6.95')).toBeTruthy();
    expect(within(offer('Gold Checking')).getByText('$14.95')).toBeTruthy();
    expect(within(offer('Platinum Checking')).getByText('$24.95')).toBeTruthy();
    expect(within(offer('Easy Checking')).getByText(/keep at least \$1,500 in the account/)).toBeTruthy();
    expect(within(offer('Easy Checking')).getByText('No interest paid')).toBeTruthy();
    expect(within(offer('Platinum Checking')).getByText('0.25% APY (0.25% interest rate) on balances of $25,000 or more')).toBeTruthy();
    // The marketing words stay.
    expect(within(offer('Gold Checking')).getByText('A second card for a family member')).toBeTruthy();
  });

  it('/current prints what the API says, not a price written in the page: a changed fee shows as changed', async () => {
    const changed = seedProducts.map((product) =>
      product.code === 'gold-checking' ? { ...product, monthlyFeeCents: 1_995, waiverText: 'The monthly fee is charged every month.' } : product,
    );
    renderApp('/current', { 'GET /api/v1/products': products({ items: changed, asOf: '2027-01-04' }) });
    expect(await screen.findByText('January 4, 2027')).toBeTruthy();
    expect(within(offer('Gold Checking')).getByText('$19.95')).toBeTruthy();
    expect(within(offer('Gold Checking')).getByText('The monthly fee is charged every month.')).toBeTruthy();
    expect(screen.queryByText('$14.95')).toBeNull();
  });

  it('/savings shows each account with its opening deposit and its rates and APYs by balance tier', async () => {
    renderApp('/savings', { 'GET /api/v1/products': products() });
    expect(await screen.findByText('November 30, 2026')).toBeTruthy();
    expect(within(offer('Standard Savings Account')).getByText('$500')).toBeTruthy();
    expect(within(offer('Standard Savings Account')).getByText('1.51% APY (1.50% interest rate) on any balance')).toBeTruthy();
    const platinum = offer('Platinum Select Money Market Savings');
    expect(within(platinum).getByText('$2,500')).toBeTruthy();
    expect(within(platinum).getByText('2.02% APY (2.00% interest rate) on balances under $10,000')).toBeTruthy();
    expect(within(platinum).getByText('2.53% APY (2.50% interest rate) on balances of $10,000 or more')).toBeTruthy();
    expect(within(offer('Package Money Market Savings')).getByText('$5,000')).toBeTruthy();
    expect(within(offer('Package Money Market Savings')).getByText('2 cards')).toBeTruthy();
  });

  it('says the rates and fees are loading until the answer comes, with no price yet', async () => {
    renderApp('/current', { 'GET /api/v1/products': products() });
    expect(screen.getByText(/Loading today.s rates and fees/)).toBeTruthy();
    expect(within(offer('Easy Checking')).getByText('…')).toBeTruthy();
    expect(screen.queryByText('$6.95')).toBeNull();
    expect(await within(offer('Easy Checking')).findByText('$6.95')).toBeTruthy();
    expect(screen.queryByText(/Loading today.s rates and fees/)).toBeNull();
  });

  it('says when the rates and fees could not be loaded, and "Try again" asks again', async () => {
    let calls = 0;
    renderApp('/current', {
      'GET /api/v1/products': () => {
        calls += 1;
        return calls === 1 ? { status: 503, body: { error: { code: 'service_unavailable', message: 'The bank is briefly unavailable.' } } } : products();
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not load today’s rates and fees: The bank is briefly unavailable.');
    expect(within(offer('Gold Checking')).getByText('—')).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(offer('Gold Checking')).findByText('$14.95')).toBeTruthy();
    expect(calls).toBe(2);
  });
});
