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

describe('a link to a section of another page', () => {
  it('lands on the section once the page has drawn it, and gives it the focus', async () => {
    const scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView;
    renderApp('/#later-section');
    const section = document.createElement('h2');
    section.id = 'later-section';
    section.textContent = 'Drawn after its data loaded';
    document.body.append(section);
    await vi.waitFor(() => expect(scrollIntoView).toHaveBeenCalledWith({ block: 'start' }));
    expect(scrollIntoView.mock.contexts[0]).toBe(section);
    expect(document.activeElement).toBe(section);
    section.remove();
  });
});
