import './lib/zod-jitless.ts';
import '@fontsource-variable/inter/wght.css';
import './styles/tokens.css';
import './styles/base.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { readBankIdentity } from './lib/bank-identity.ts';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App bankIdentity={readBankIdentity()} />
  </StrictMode>
);
// A marketing page arrives pre-rendered and already painted (vite.config.ts): React adopts its
// markup instead of drawing it again, and as a transition it does so in slices of a few
// milliseconds, so a tap or a key on the page never waits for the whole page to be adopted. Every
// other page arrives as an empty shell. The pre-rendered page's head already holds its own title
// and description, which React takes over as they are (the first <title>, a <meta> of the same
// content).
if (rootElement.hasChildNodes()) startTransition(() => void hydrateRoot(rootElement, app));
else {
  // index.html carries a generic title and description for clients that run no JavaScript; every
  // page renders its own, and two <title> elements would leave the browser the first.
  for (const element of document.head.querySelectorAll('[data-fallback]')) element.remove();
  createRoot(rootElement).render(app);
}
