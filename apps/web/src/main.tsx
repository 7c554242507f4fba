import './lib/zod-jitless.ts';
import '@fontsource-variable/inter/wght.css';
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { readBankIdentity } from './lib/bank-identity.ts';

// index.html carries a title and description for clients that run no JavaScript; once the app
// runs, every page renders its own, and two <title> elements would leave the browser the first.
for (const element of document.head.querySelectorAll('[data-fallback]')) element.remove();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <App bankIdentity={readBankIdentity()} />
  </StrictMode>,
);
