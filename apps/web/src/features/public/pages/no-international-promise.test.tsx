import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';

afterEach(() => vi.unstubAllGlobals());

/**
 * The bank pays US banks only (a SWIFT code in "Routing number" is refused): no public page
 * promises international payments or wires until they are offered (decision 060).
 */
describe('the public pages promise only what the bank does', () => {
  it.each(['/', '/savings', '/current', '/cards', '/about', '/faq'])('%s does not promise international transfers', async (path) => {
    renderApp(path);
    await screen.findAllByRole('heading', { level: 1 });
    expect(document.body.textContent).not.toMatch(/international/i);
  });

  it('says what every savings account does instead: transfers to US banks', async () => {
    renderApp('/savings');
    expect((await screen.findAllByText(/transfers to US banks/i)).length).toBeGreaterThan(0);
  });
});
