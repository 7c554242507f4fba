import { dataClusters } from '@strongroom/contracts/connected-apps.ts';
import type { AccountView, TransactionView } from './fdx-view.ts';
import { html, type Markup } from './html.ts';
import { budgetApp } from './seed.ts';

/**
 * Pennywise's pages, rendered on the server (docs/connected-apps.md, "The sandbox's app"): plain
 * HTML and one stylesheet, no script, so they live under the bank's strict CSP. Links and forms
 * only: every page works with a keyboard and without JavaScript.
 */
const base = budgetApp.basePath;

export interface AccountReading {
  account: AccountView;
  /** The first page, or why there is none. */
  transactions: TransactionView[] | 'not_shared' | 'unavailable';
}

export interface BudgetReading {
  /** The scopes the bank granted, as its token answer said. */
  scopes: string[];
  /** False when the bank would not list the accounts (account details were not shared). */
  accountsShared: boolean;
  accounts: AccountReading[];
}

function layout(title: string, body: Markup): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title} · Pennywise (sandbox)</title>
        <link rel="stylesheet" href="${base}/styles.css" />
      </head>
      <body>
        <header class="bar"><span class="bar__name">Pennywise</span><span class="bar__tag">Sandbox app</span></header>
        <main>${body}</main>
        <footer>
          Pennywise is a fictional budgeting app of the Strongroom sandbox, there to try connected apps. It is not a real company and it keeps nothing once the
          sandbox stops.
        </footer>
      </body>
    </html>`.value;
}

function connectForm(label: string, variant: 'primary' | 'secondary' = 'primary'): Markup {
  return html`<form method="post" action="${base}/start">
    <button class="button${variant === 'secondary' ? ' button--secondary' : ''}" type="submit">${label}</button>
  </form>`;
}

export function homePage(connected: boolean): string {
  return layout(
    'Budget with your real spending',
    html`<h1>Budget with your real spending</h1>
      <p class="lead">Pennywise is a fictional budgeting app of the sandbox, to try connected apps.</p>
      <section class="card" aria-labelledby="how-title">
        <h2 id="how-title">How connecting works</h2>
        <p>
          Pennywise asks Strongroom for your permission. You sign in at Strongroom, never here: Pennywise never sees your password. Strongroom shows you what
          Pennywise asks for; you choose the accounts, the kinds of data and for how long.
        </p>
        <p>You can end Pennywise’s access at any time in Strongroom, under Settings › Connected apps.</p>
        <div class="actions">
          ${connectForm('Connect your Strongroom account')}${connected ? html`<a class="button button--secondary" href="${base}/refresh">See your money</a>` : ''}
        </div>
      </section>`,
  );
}

function scopeLabel(scope: string): string {
  return dataClusters.find((cluster) => cluster.scope === scope)?.label ?? scope;
}

function transactionsTable(account: AccountView, transactions: AccountReading['transactions']): Markup {
  if (transactions === 'not_shared') return html`<p class="muted">Strongroom did not share this account’s transactions with Pennywise.</p>`;
  if (transactions === 'unavailable') return html`<p class="muted">Strongroom could not send this account’s transactions just now.</p>`;
  if (transactions.length === 0) return html`<p class="muted">No transactions yet.</p>`;
  return html`<div class="table-wrap">
    <table>
      <caption>
        Transactions of ${account.name}
      </caption>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Description</th>
          <th scope="col" class="amount">Amount</th>
        </tr>
      </thead>
      <tbody>
        ${transactions.map(
          (line) =>
            html`<tr>
              <td>${line.date}</td>
              <td>${line.description}${line.status && line.status !== 'POSTED' ? html` <span class="muted">(${line.status.toLowerCase()})</span>` : ''}</td>
              <td class="amount ${line.amount.startsWith('-') ? 'amount--out' : 'amount--in'}">${line.amount}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function accountSection(reading: AccountReading, index: number): Markup {
  const { account } = reading;
  const titleId = `account-${index}`;
  return html`<section class="card" aria-labelledby="${titleId}">
    <h2 id="${titleId}">${account.name}</h2>
    ${account.numberDisplay ? html`<p class="muted">${/^\d+$/.test(account.numberDisplay) ? `Account ending ${account.numberDisplay}` : `Account ${account.numberDisplay}`}</p>` : ''}
    ${
      account.currentBalance || account.availableBalance
        ? html`<dl class="facts">
            ${
              account.currentBalance
                ? html`<dt>Balance</dt>
                    <dd>${account.currentBalance}</dd>`
                : ''
            }${
              account.availableBalance
                ? html`<dt>Available</dt>
                    <dd>${account.availableBalance}</dd>`
                : ''
            }
          </dl>`
        : ''
    }
    ${transactionsTable(account, reading.transactions)}
  </section>`;
}

export function readingPage(reading: BudgetReading): string {
  return layout(
    'Your money',
    html`<h1>Your money, from Strongroom</h1>
      <p class="lead">What Strongroom shares with Pennywise, read just now.</p>
      <div class="notice notice--ok">
        <p>
          Strongroom shares:
          ${
            reading.scopes
              .filter((scope) => scope.startsWith('fdx:'))
              .map(scopeLabel)
              .join(', ') || 'nothing'
          }.
        </p>
      </div>
      ${reading.accountsShared ? '' : html`<p class="card">Strongroom did not share your accounts’ details with Pennywise.</p>`}
      ${reading.accountsShared && reading.accounts.length === 0 ? html`<p class="card">Strongroom shares no account with Pennywise.</p>` : ''}
      ${reading.accounts.map((account, index) => accountSection(account, index))}
      <div class="actions"><a class="button" href="${base}/refresh">Refresh</a>${connectForm('Connect again', 'secondary')}</div>`,
  );
}

export function accessEndedPage(): string {
  return layout(
    'Access ended',
    html`<h1>Pennywise can no longer read your data</h1>
      <div class="notice" role="alert"><p>Strongroom says this app’s access has ended (the customer revoked it or it expired).</p></div>
      <p>To see your money here again, connect again and allow Pennywise at Strongroom.</p>
      <div class="actions">${connectForm('Connect again')}</div>`,
  );
}

export function notConnectedPage(): string {
  return layout(
    'Not connected',
    html`<h1>Pennywise is not connected yet</h1>
      <p class="lead">Connect your Strongroom account to see your money here.</p>
      <div class="actions">${connectForm('Connect your Strongroom account')}</div>`,
  );
}

export function refusedPage(): string {
  return layout(
    'Not connected',
    html`<h1>You did not allow Pennywise</h1>
      <p class="lead">Strongroom shared nothing with Pennywise. You can connect again whenever you like.</p>
      <div class="actions">${connectForm('Connect your Strongroom account')}<a class="button button--secondary" href="${base}/">Back to Pennywise</a></div>`,
  );
}

export function problemPage(message: string): string {
  return layout(
    'Something went wrong',
    html`<h1>Something went wrong</h1>
      <div class="notice" role="alert"><p>${message}</p></div>
      <div class="actions">${connectForm('Start again')}<a class="button button--secondary" href="${base}/">Back to Pennywise</a></div>`,
  );
}
