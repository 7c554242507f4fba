import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import type PDFDocument from 'pdfkit';

/**
 * Text in any script for the bank's PDFs (statements, receipts), docs/decisions/033-data-export-and-pdf-fonts.md.
 *
 * A string that Helvetica can print (Windows-1252: English and the Western European names) is
 * printed in Helvetica, one of PDF's standard fonts: nothing is embedded, so such a PDF is as
 * small and as fast as before. Any other string is printed in Noto Sans (Latin, Greek, Cyrillic,
 * Vietnamese), and each run of characters Noto Sans lacks in Noto Sans SC (Chinese, and the
 * kana and hangul it also holds). Both are embedded as subsets (only the glyphs used), loaded from
 * npm packages (@expo-google-fonts/noto-sans and noto-sans-sc, SIL Open Font License 1.1) the
 * first time a document needs them: never from the network, never from the system's fonts.
 * A character none of the three fonts has is printed as '?'.
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
}

/** Tried in this order: the first face with a glyph for a character prints it. */
const embeddedFaces: Record<PdfWeight, readonly EmbeddedFace[]> = {
  regular: [
    { name: 'NotoSans', file: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf' },
    { name: 'NotoSansSC', file: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf' },
  ],
  bold: [
    { name: 'NotoSans-Bold', file: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf' },
    { name: 'NotoSansSC-Bold', file: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf' },
  ],
};

const require = createRequire(import.meta.url);
/** Read and parsed once per process, on first use. */
const loaded = new Map<string, fontkit.Font>();

function face(entry: EmbeddedFace): fontkit.Font {
  let found = loaded.get(entry.name);
  if (!found) {
    found = fontkit.create(readFileSync(require.resolve(entry.file)));
    loaded.set(entry.name, found);
  }
  return found;
}

export interface PdfTextRun {
  /** A font name the document knows (see useUnicodeFonts). */
  font: string;
  text: string;
}

const replacement = '?';

/** The runs a text is printed in: all Helvetica when it can print it all, else Noto runs (see above). */
export function pdfTextRuns(text: string, weight: PdfWeight): PdfTextRun[] {
  const normalized = text.normalize('NFC').replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ');
  const characters = [...normalized];
  if (characters.every((character) => standardFontCanPrint(character.codePointAt(0) ?? 0))) return [{ font: standardFonts[weight], text: normalized }];
  const faces = embeddedFaces[weight];
  const runs: PdfTextRun[] = [];
  for (const character of characters) {
    const codePoint = character.codePointAt(0) ?? 0;
    const chosen = faces.find((entry) => face(entry).hasGlyphForCodePoint(codePoint));
    // A space joins the run it is in, whichever face it belongs to: fewer font switches, same look.
    const printed = chosen ? character : /\s/u.test(character) ? ' ' : replacement;
    const fontName = chosen?.name ?? runs.at(-1)?.font ?? faces[0]?.name ?? standardFonts[weight];
    const last = runs.at(-1);
    if (last && (last.font === fontName || /\s/u.test(printed))) last.text += printed;
    else runs.push({ font: fontName, text: printed });
  }
  return runs;
}

const facesByName = new Map(Object.values(embeddedFaces).flatMap((faces) => faces.map((entry) => [entry.name, entry] as const)));
/** The embedded faces each document has been given: pdfkit embeds a face only once used, and only its glyphs used. */
const registered = new WeakMap<Document, Set<string>>();

/** Switches the document to a run's font, registering an embedded face with it the first time. */
function useRunFont(doc: Document, name: string): Document {
  const entry = facesByName.get(name);
  if (entry) {
    let names = registered.get(doc);
    if (!names) registered.set(doc, (names = new Set()));
    if (!names.has(name)) {
      // The parsed font itself, shared by every document: each builds its own subset from it, and
      // the tables fontkit has read (cmap, glyphs, layout) are not read again per document.
      doc.registerFont(name, face(entry) as unknown as PDFKit.Mixins.PDFFontSource);
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

/**
 * Prints a text on one line at (x, y), y the top of the line as for pdfkit's text(). Every run
 * sits on Helvetica's baseline, so a line mixing fonts is level, and a Helvetica-only text lands
 * exactly where doc.text() would have put it. Leaves the document in the standard font of that weight.
 */
export function unicodeTextAt(doc: Document, text: string, weight: PdfWeight, x: number, y: number): void {
  const runs = pdfTextRuns(text, weight);
  const [only] = runs;
  if (runs.length === 1 && only?.font === standardFonts[weight]) {
    doc.font(only.font).text(only.text, x, y, { lineBreak: false });
    return;
  }
  const baseline = y + baselineOffset(doc);
  let left = x;
  for (const run of runs) {
    useRunFont(doc, run.font).text(run.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
    left += doc.widthOfString(run.text);
  }
  doc.font(standardFonts[weight]);
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
  const runs = pdfTextRuns(text, weight);
  const [only] = runs;
  if (runs.length === 1 && only?.font === standardFonts[weight]) {
    if (at) doc.font(only.font).text(only.text, at.x, at.y, options);
    else doc.font(only.font).text(only.text, options);
    return;
  }
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
