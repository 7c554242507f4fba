import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import type PDFDocument from 'pdfkit';
import { groupRuns, hasRightToLeft, resolveBidi, visualRuns, type BidiText, type PdfTextRun, type PrintedCluster } from './pdf-bidi.ts';

/**
 * Text in any script for the bank's PDFs (statements, receipts, loan schedules),
 * docs/decisions/033-data-export-and-pdf-fonts.md and 056-fonts-for-every-name.md.
 *
 * A string that Helvetica can print (Windows-1252: English and the Western European names) is
 * printed in Helvetica, one of PDF's standard fonts: nothing is embedded, so such a PDF is as
 * small and as fast as before. Any other string is printed one grapheme cluster at a time in the
 * first of these that has every character of it: Noto Sans (Latin, Greek, Cyrillic, Vietnamese),
 * IBM Plex Sans Arabic (one glyph for each form of each letter, so the text copies out exact; Noto
 * Sans Arabic draws dotted letters as a shared body plus dots, and a PDF maps a glyph to one
 * letter only), Noto Sans Hebrew, Noto Sans SC (Chinese, and the kana and hangul it also holds)
 * and Noto Emoji (monochrome emoji, sequences joined by U+200D included). Each is embedded
 * as a subset (only the glyphs used), loaded from npm packages (@expo-google-fonts, SIL Open Font
 * License 1.1) the first time a document needs it: never from the network, never from the
 * system's fonts. fontkit shapes Arabic (joining forms) as it lays a word out, and pdf-bidi.ts
 * puts right-to-left text in visual order. A character none of the fonts has (Thai, Devanagari)
 * is printed as '?'.
 */
export type PdfWeight = 'regular' | 'bold';
type Document = InstanceType<typeof PDFDocument>;

const standardFonts = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;

/** Windows-1252 code points above 0xFF that the standard fonts can show. */
const windows1252Extras = new Set([
  338, 339, 352, 353, 376, 381, 382, 402, 710, 732, 8211, 8212, 8216, 8217, 8218, 8220, 8221, 8222, 8224, 8225, 8226, 8230, 8240, 8249, 8250, 8364, 8482,
]);

export function standardFontCanPrint(codePoint: number): boolean {
  return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || windows1252Extras.has(codePoint);
}

interface EmbeddedFace {
  /** The name the document knows it by. */
  name: string;
  /** The file inside its npm package. */
  file: string;
  /** Whether a space after its text is printed in it too; Noto Emoji's space is an emoji wide. */
  keepsSpaces: boolean;
}

/**
 * Tried in this order: the first face with a glyph for every character of a cluster prints it.
 * Noto Emoji comes last: it also has digits, '#' and '*' (for keycaps), which the text faces print.
 */
const embeddedFaces: Record<PdfWeight, readonly EmbeddedFace[]> = {
  regular: [
    { name: 'NotoSans', file: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf', keepsSpaces: true },
    { name: 'IBMPlexSansArabic', file: '@expo-google-fonts/ibm-plex-sans-arabic/400Regular/IBMPlexSansArabic_400Regular.ttf', keepsSpaces: true },
    { name: 'NotoSansHebrew', file: '@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf', keepsSpaces: true },
    { name: 'NotoSansSC', file: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf', keepsSpaces: true },
    { name: 'NotoEmoji', file: '@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf', keepsSpaces: false },
  ],
  bold: [
    { name: 'NotoSans-Bold', file: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf', keepsSpaces: true },
    { name: 'IBMPlexSansArabic-Bold', file: '@expo-google-fonts/ibm-plex-sans-arabic/700Bold/IBMPlexSansArabic_700Bold.ttf', keepsSpaces: true },
    { name: 'NotoSansHebrew-Bold', file: '@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf', keepsSpaces: true },
    { name: 'NotoSansSC-Bold', file: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf', keepsSpaces: true },
    { name: 'NotoEmoji-Bold', file: '@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf', keepsSpaces: false },
  ],
};

const facesByName = new Map(Object.values(embeddedFaces).flatMap((faces) => faces.map((entry) => [entry.name, entry] as const)));

const require = createRequire(import.meta.url);
/** Each font file, read once per process, on first use. */
const files = new Map<string, Buffer>();
/** Each font parsed once per process, to ask which characters it has. */
const loaded = new Map<string, fontkit.Font>();

function fileOf(entry: EmbeddedFace): Buffer {
  let found = files.get(entry.name);
  if (!found) {
    found = readFileSync(require.resolve(entry.file));
    files.set(entry.name, found);
  }
  return found;
}

function face(entry: EmbeddedFace): fontkit.Font {
  let found = loaded.get(entry.name);
  if (!found) {
    found = fontkit.create(fileOf(entry));
    loaded.set(entry.name, found);
  }
  return found;
}

export type { PdfTextRun } from './pdf-bidi.ts';

const replacement = '?';
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

function normalized(text: string): string {
  return text.normalize('NFC').replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ');
}

function canPrintAll(entry: EmbeddedFace, codePoints: readonly number[]): boolean {
  return codePoints.every((codePoint) => face(entry).hasGlyphForCodePoint(codePoint));
}

/**
 * The face chosen for each cluster seen, by weight: a statement prints the same few names
 * thousands of times, and asking five fonts about each character each time was most of its cost.
 * Emptied when full, so it stays small however many different texts a process prints.
 */
const chosenFaces = new Map<string, string>();
const chosenFacesLimit = 20_000;

/** Each grapheme cluster of a text that is not all Helvetica, with the embedded face that prints it. */
function printedClusters(text: string, weight: PdfWeight): PrintedCluster[] {
  const faces = embeddedFaces[weight];
  const firstFace = faces[0]?.name ?? standardFonts[weight];
  const clusters: PrintedCluster[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const previous = clusters.at(-1)?.font ?? firstFace;
    if (/^\s+$/u.test(segment)) {
      // A space joins the run it is in, whichever face it belongs to: fewer font switches, same look.
      const previousFace = facesByName.get(previous);
      const spaceFace = previousFace?.keepsSpaces === false ? faces[0] : previousFace;
      clusters.push({ font: spaceFace?.name ?? previous, text: spaceFace && canPrintAll(spaceFace, codePointsOf(segment)) ? segment : ' ' });
      continue;
    }
    const known = chosenFaces.get(`${weight}:${segment}`);
    if (known) {
      clusters.push({ font: known, text: segment });
      continue;
    }
    const codePoints = codePointsOf(segment);
    const whole = faces.find((entry) => canPrintAll(entry, codePoints));
    if (whole) {
      if (chosenFaces.size >= chosenFacesLimit) chosenFaces.clear();
      chosenFaces.set(`${weight}:${segment}`, whole.name);
      clusters.push({ font: whole.name, text: segment });
      continue;
    }
    // No face has the whole cluster (a mark or selector no font knows): its letter still prints.
    const base = faces.find((entry) => canPrintAll(entry, codePoints.slice(0, 1)));
    if (base) clusters.push({ font: base.name, text: [...segment].filter((character) => canPrintAll(base, codePointsOf(character))).join('') });
    else clusters.push({ font: previous, text: replacement });
  }
  return clusters;
}

function codePointsOf(text: string): number[] {
  return [...text].map((character) => character.codePointAt(0) ?? 0);
}

function isStandard(text: string): boolean {
  return [...text].every((character) => standardFontCanPrint(character.codePointAt(0) ?? 0));
}

/** The runs a text is printed in, in logical order: all Helvetica when it can print it all, else Noto runs (see above). */
export function pdfTextRuns(text: string, weight: PdfWeight): PdfTextRun[] {
  const plain = normalized(text);
  if (isStandard(plain)) return [{ font: standardFonts[weight], text: plain }];
  return groupRuns(printedClusters(plain, weight));
}

/** The embedded faces each document has been given: pdfkit embeds a face only once used, and only its glyphs used. */
const registered = new WeakMap<Document, Set<string>>();

/** Switches the document to a run's font, registering an embedded face with it the first time. */
function useRunFont(doc: Document, name: string): Document {
  const entry = facesByName.get(name);
  if (entry) {
    let names = registered.get(doc);
    if (!names) registered.set(doc, (names = new Set()));
    if (!names.has(name)) {
      // The file, parsed again for each document, never a font object shared between documents:
      // fontkit keeps each glyph it meets with the characters it was first met for, and a glyph
      // first met as part of another (the "n" inside "ñ", when a subset is written) has none,
      // so a shared font left later documents without the text of their "n" (pdftotext read
      // "Dinner" as "Di er" once a "Núñez" had been printed). It costs tens of milliseconds a document.
      doc.registerFont(name, fileOf(entry));
      names.add(name);
    }
  }
  return doc.font(name);
}

/** Where Helvetica's baseline sits below the top of a line: every run of a line sits on it. */
function baselineOffset(doc: Document): number {
  return (718 / 1000) * (doc as unknown as { _fontSize: number })._fontSize;
}

/**
 * The width of the text in the document's current size, as printed by pdfTextRuns. The document's
 * font is left as the standard one of that weight.
 */
export function unicodeWidth(doc: Document, text: string, weight: PdfWeight): number {
  let width = 0;
  for (const run of pdfTextRuns(text, weight)) width += useRunFont(doc, run.font).widthOfString(run.text);
  doc.font(standardFonts[weight]);
  return width;
}

/** Draws runs from left to right on one baseline; leaves the document in the standard font of that weight. */
function drawRuns(doc: Document, runs: readonly PdfTextRun[], weight: PdfWeight, x: number, baseline: number): void {
  let left = x;
  for (const run of runs) {
    useRunFont(doc, run.font).text(run.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
    left += doc.widthOfString(run.text);
  }
  doc.font(standardFonts[weight]);
}

/**
 * Prints a text on one line at (x, y), y the top of the line as for pdfkit's text(). Every run
 * sits on Helvetica's baseline, so a line mixing fonts is level, and a Helvetica-only text lands
 * exactly where doc.text() would have put it. Right-to-left text is drawn in visual order.
 * Leaves the document in the standard font of that weight.
 */
export function unicodeTextAt(doc: Document, text: string, weight: PdfWeight, x: number, y: number): void {
  const plain = normalized(text);
  if (isStandard(plain)) {
    doc.font(standardFonts[weight]).text(plain, x, y, { lineBreak: false });
    return;
  }
  drawRuns(doc, visualRuns(resolveBidi(printedClusters(plain, weight))), weight, x, y + baselineOffset(doc));
}

/**
 * Prints a text wrapped to a width from (x, y) (or from where the last text left off when x and y
 * are undefined), as pdfkit's text() with `width` does, runs chained with `continued`, all on
 * Helvetica's baseline. Leaves the document in the standard font of that weight.
 */
export function unicodeParagraph(
  doc: Document,
  text: string,
  weight: PdfWeight,
  at: { x: number; y: number } | undefined,
  options: PDFKit.Mixins.TextOptions & { width: number },
): void {
  const plain = normalized(text);
  if (isStandard(plain)) {
    if (at) doc.font(standardFonts[weight]).text(plain, at.x, at.y, options);
    else doc.font(standardFonts[weight]).text(plain, options);
    return;
  }
  const resolved = resolveBidi(printedClusters(plain, weight));
  if (hasRightToLeft(resolved)) {
    rightToLeftParagraph(doc, resolved, weight, at ?? { x: doc.x, y: doc.y }, options);
    return;
  }
  const runs = groupRuns(resolved.clusters);
  // A numeric baseline is an offset in points from the top of the line, the same whatever the font.
  const shared = { ...options, baseline: -baselineOffset(doc) };
  runs.forEach((run, index) => {
    const runOptions = { ...shared, continued: index < runs.length - 1 };
    useRunFont(doc, run.font);
    if (index === 0 && at) doc.text(run.text, at.x, at.y, runOptions);
    else doc.text(run.text, runOptions);
  });
  doc.font(standardFonts[weight]);
}

/**
 * A paragraph holding right-to-left text, wrapped here rather than by pdfkit: the Bidirectional
 * Algorithm reorders each line after it is broken (rule L2), and pdfkit's wrapping happens while
 * it draws. Words are filled greedily to the width (a word wider than the whole line is cut
 * between clusters), each line is drawn in visual order from the left edge, and the document's
 * position is left below the last line, as pdfkit's own text() leaves it. Only `width` and
 * `lineGap` of the options apply.
 */
function rightToLeftParagraph(
  doc: Document,
  resolved: BidiText,
  weight: PdfWeight,
  at: { x: number; y: number },
  options: { width: number; lineGap?: number },
): void {
  const { clusters } = resolved;
  const widthOf = (first: number, end: number) => {
    let width = 0;
    for (const run of groupRuns(clusters.slice(first, end))) width += useRunFont(doc, run.font).widthOfString(run.text);
    return width;
  };
  const lines: [number, number][] = [];
  let lineStart = 0;
  let index = 0;
  while (index < clusters.length) {
    // The next word: the clusters up to the next space, and the space after it.
    let wordEnd = index;
    while (wordEnd < clusters.length && clusters[wordEnd]?.text !== ' ') wordEnd += 1;
    if (lineStart < index && widthOf(lineStart, wordEnd) > options.width) {
      lines.push([lineStart, index]);
      lineStart = index;
    }
    // A word alone wider than the line is cut where it no longer fits.
    while (widthOf(lineStart, wordEnd) > options.width && wordEnd - lineStart > 1) {
      let cut = lineStart + 1;
      while (cut < wordEnd && widthOf(lineStart, cut + 1) <= options.width) cut += 1;
      lines.push([lineStart, cut]);
      lineStart = cut;
    }
    index = Math.min(wordEnd + 1, clusters.length);
  }
  if (lineStart < clusters.length) lines.push([lineStart, clusters.length]);

  doc.font(standardFonts[weight]);
  const lineHeight = doc.currentLineHeight(true) + (options.lineGap ?? 0);
  let top = at.y;
  for (const [first, end] of lines) {
    // The spaces a line was broken at are not drawn: they would push a right-to-left line's words over.
    let last = end;
    while (last > first && clusters[last - 1]?.text === ' ') last -= 1;
    drawRuns(doc, visualRuns(resolved, first, last), weight, at.x, top + baselineOffset(doc));
    top += lineHeight;
  }
  doc.x = at.x;
  doc.y = top;
}
