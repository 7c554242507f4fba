/**
 * Pennywise's stylesheet, served at /sandbox/budget-app/styles.css: the bank's CSP allows styles
 * from its own origin only, never inline ones. Green, so nobody takes the app for the bank.
 */
export const budgetAppStyles = `
:root { color-scheme: light dark; --ink: #1d2a22; --muted: #52635a; --paper: #f6faf7; --card: #ffffff; --line: #d5e2da; --accent: #1f7a4d; --accent-ink: #ffffff; --out: #b3261e; --in: #1f7a4d; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e6f0ea; --muted: #a9bcb1; --paper: #101813; --card: #17221b; --line: #2c3d33; --accent: #5cc794; --accent-ink: #0b1a12; --out: #ff8a80; --in: #6fdba5; }
}
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; color: var(--ink); background: var(--paper); }
.bar { display: flex; align-items: center; justify-content: space-between; gap: 16px; padding: 16px 24px; background: var(--accent); color: var(--accent-ink); }
.bar__name { font-size: 1.25rem; font-weight: 700; letter-spacing: 0.02em; }
.bar__tag { font-size: 0.875rem; border: 1px solid currentColor; border-radius: 999px; padding: 2px 12px; }
main { max-width: 880px; margin: 0 auto; padding: 32px 24px 48px; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 8px; }
h2 { font-size: 1.25rem; margin: 0 0 4px; }
.lead { color: var(--muted); margin: 0 0 24px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 24px; margin: 0 0 24px; }
.notice { border-left: 4px solid var(--out); background: var(--card); padding: 16px; border-radius: 8px; margin: 0 0 24px; }
.notice--ok { border-left-color: var(--in); }
.notice p { margin: 0; }
.button { display: inline-block; font: inherit; font-weight: 600; padding: 12px 20px; border-radius: 8px; border: 2px solid var(--accent); background: var(--accent); color: var(--accent-ink); text-decoration: none; cursor: pointer; }
.button--secondary { background: transparent; color: var(--accent); }
.button:focus-visible, a:focus-visible { outline: 3px solid var(--ink); outline-offset: 2px; }
.actions { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0 0; }
.actions form { margin: 0; }
a { color: var(--accent); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 12px 0 16px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; font-variant-numeric: tabular-nums; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0 0 8px; }
th, td { text-align: left; padding: 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th.amount, td.amount { text-align: right; white-space: nowrap; }
td.amount--out { color: var(--out); }
td.amount--in { color: var(--in); }
.muted { color: var(--muted); }
ul.scopes { margin: 8px 0 0; padding-left: 20px; }
footer { max-width: 880px; margin: 0 auto; padding: 0 24px 32px; color: var(--muted); font-size: 0.875rem; }
@media (max-width: 480px) {
  main { padding: 24px 16px 40px; }
  .bar { padding: 12px 16px; }
  .card { padding: 16px; }
  th, td { padding: 6px 4px; }
  .button { width: 100%; text-align: center; }
  .actions form { width: 100%; }
}
`;
