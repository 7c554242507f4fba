/**
 * A page's markup, escaped by construction: every value put into an `html` template is escaped
 * unless it is itself markup made by `html`. Pennywise shows what the bank sent (account names,
 * transaction descriptions typed by customers), so nothing reaches the page unescaped.
 */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const escapes: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

type Value = Markup | string | number | undefined | null | false | readonly Value[];

function render(value: Value): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map((item: Value) => render(item)).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  return new Markup(strings.reduce((out, part, index) => out + part + (index < values.length ? render(values[index]) : ''), ''));
}
