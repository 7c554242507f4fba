import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { BankMode } from '@strongroom/contracts/platform.ts';
import { AppTree } from './app/app.tsx';
import { defaultBankTimeZone } from './lib/bank-identity.ts';

/**
 * Build-time rendering of the marketing pages (vite.config.ts), so a visitor's first paint comes
 * from the HTML alone instead of waiting for the JavaScript. The bank's name stays the placeholder
 * the server fills in when it serves the page; the mode decides whether the sandbox banner is in it.
 */
export function renderMarketingPage(path: string, mode: BankMode): string {
  return renderToString(
    <StaticRouter location={path}>
      <AppTree bankIdentity={{ name: '%BANK_NAME%', mode, timeZone: defaultBankTimeZone }} />
    </StaticRouter>,
  );
}
