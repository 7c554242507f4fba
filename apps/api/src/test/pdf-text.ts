import { pdfText } from './statements.ts';

const rightToLeftStretch = /\u202b( *)([^\u202c]*)\u202c/gu;

/**
 * A PDF's text as pdftotext reads it, put the way a reader would type it, for comparing with what
 * was printed: pdftotext marks each right-to-left stretch with embedding controls (U+202B ...
 * U+202C), and gives the space drawn after such a stretch inside it, first (it reverses the
 * stretch together with the space after it), so that space is put back after it; Arabic letters
 * may come back as the presentation forms the font drew (NFKC folds them back to the letters);
 * and -layout spaces a line out, so runs of spaces are squeezed to one.
 */
export function readablePdfText(pdf: Buffer): string {
  return pdfText(pdf)
    .replace(rightToLeftStretch, (_, spaces: string, stretch: string) => `${stretch}${spaces}`)
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, '')
    .normalize('NFKC')
    .replace(/[ \t]+/g, ' ');
}
