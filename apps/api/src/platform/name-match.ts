/**
 * How a name typed for a payee compares with the name on the account (Confirmation of Payee, as UK
 * banks do it): shared by a payment to an account of this bank (payments/payee-check.ts) and by
 * saving one as a payee (beneficiaries, decision 060), so both answer the same for the same name.
 * Case, accents and word order do not count; a close match is an initial for the first name or a
 * typo of one or two letters.
 */
function normalizedWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

export function compareNames(typed: string, actual: string): 'match' | 'close_match' | 'no_match' {
  const typedWords = normalizedWords(typed);
  const actualWords = normalizedWords(actual);
  if (typedWords.length === 0) return 'no_match';
  if ([...typedWords].sort().join(' ') === [...actualWords].sort().join(' ')) return 'match';
  const typedLast = typedWords.at(-1) ?? '';
  const actualLast = actualWords.at(-1) ?? '';
  const typedFirst = typedWords[0] ?? '';
  const actualFirst = actualWords[0] ?? '';
  // "J Smith" for "John Smith"; "Jon Smith" for "John Smith"; a typo of one or two letters.
  if (typedLast === actualLast && (actualFirst.startsWith(typedFirst) || editDistance(typedFirst, actualFirst) <= 1)) return 'close_match';
  if (editDistance(typedWords.join(' '), actualWords.join(' ')) <= 2) return 'close_match';
  return 'no_match';
}
