import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('ScrollReset', () => {
  it('opens the next page at its top, and leaves the first page where the browser put it', async () => {
    const user = userEvent.setup();
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    renderApp('/');
    expect(scrollTo).not.toHaveBeenCalled();
    await user.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'FAQ' }));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });
});
