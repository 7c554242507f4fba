/**
 * How a connected app is shown without its logo, on the consent page and in Settings: "Pennywise
 * (sandbox)" -> "PS", the first letters of its first two words, punctuation left out.
 */
export function initialsOf(name: string): string {
  const letters = name
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, '').charAt(0))
    .filter(Boolean);
  return letters.slice(0, 2).join('').toUpperCase() || '?';
}

/**
 * The bank's CSP loads images from its own origin only (img-src 'self'): an app's logo elsewhere
 * would show broken, so it is shown only when the bank serves it, and the initials stand in otherwise.
 */
export function isOwnOrigin(address: string): boolean {
  try {
    return new URL(address, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}
