import { act } from '@testing-library/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './app/app.tsx';
import { marketingPagePaths } from './app/marketing-pages.ts';
import { loadPublicSettings } from './lib/public-settings.ts';
import { renderMarketingPage } from './prerender.tsx';
import { publicSettings } from './test/render-app.tsx';

const bankName = 'Strongroom Demo Bank';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

/**
 * main.tsx adopts a pre-rendered page (hydration) instead of drawing it again. A page whose markup
 * React does not find exactly as it would render it is thrown away and drawn anew, with an error in
 * the console: the visitor's painted page flickers and its largest paint comes late.
 */
describe('pre-rendered marketing pages', () => {
  it.each(marketingPagePaths)('%s is adopted without a mismatch, even when the bank’s settings arrived first', async (path) => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => new Response(JSON.stringify(publicSettings), { status: 200, headers: { 'content-type': 'application/json' } })),
    );
    const container = document.createElement('div');
    // As the build and the server leave it: the page's title and description moved to the head, the name filled in.
    container.innerHTML = renderMarketingPage(path, 'sandbox')
      .replace(/<title>[\s\S]*?<\/title>/, '')
      .replace(/<meta name="description" content="[^"]*"\/>/, '')
      .replaceAll('%BANK_NAME%', bankName);
    // The header and footer are adopted before the main content; their effect loads the settings, so
    // the content may be adopted with the settings already here. This puts them here from the start.
    await loadPublicSettings();
    document.body.append(container);
    window.history.replaceState({}, '', path);
    const heading = container.querySelector('h1');
    const recoverableErrors: unknown[] = [];

    await act(async () => {
      startTransition(() => {
        root = hydrateRoot(
          container,
          <StrictMode>
            <App bankIdentity={{ name: bankName, mode: 'sandbox', timeZone: 'America/New_York' }} />
          </StrictMode>,
          { onRecoverableError: (error) => recoverableErrors.push(error) },
        );
      });
    });

    expect(recoverableErrors).toEqual([]);
    // Adopted, not redrawn: the element painted before the script ran is still the page's.
    expect(container.querySelector('h1')).toBe(heading);
    // And the settings show once the page is adopted.
    expect(container.querySelector('footer')?.textContent).toContain(publicSettings.phone);
  });
});
