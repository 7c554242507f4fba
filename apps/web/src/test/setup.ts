import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { resetPublicSettingsCache } from '../lib/public-settings.ts';
import { loadLazyScreens } from './render-app.tsx';

/**
 * On a busy machine a first render can take over Testing Library's default second: every `findBy`
 * and `waitFor` gives up after 5 s instead. They still return as soon as what they wait for is
 * there, so this costs nothing when the machine is quiet.
 */
configure({ asyncUtilTimeout: 5_000 });

/** The lazy screens are loaded before any test, not raced by its first findBy (render-app.tsx). */
const lazyScreensLoadMs = 120_000;
beforeAll(loadLazyScreens, lazyScreensLoadMs);

afterEach(() => {
  // Testing Library unmounts between tests by itself only when test globals are on; they are not.
  cleanup();
  // The bank settings are cached for a whole visit; each test is a new visit.
  resetPublicSettingsCache();
});

/**
 * jsdom has the <dialog> element but not its modal methods. This stand-in does what the tests
 * rely on (open/close state and the close event); Esc handling and focus placement are the
 * Dialog component's own code and are tested for real.
 */
if (typeof HTMLDialogElement !== 'undefined' && typeof HTMLDialogElement.prototype.showModal !== 'function') {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
}

/** jsdom reads files but does not make object URLs for them; a preview only needs some URL. */
if (typeof URL.createObjectURL !== 'function') {
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
}
