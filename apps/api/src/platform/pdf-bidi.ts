import bidiFactory, { type EmbeddingLevels } from 'bidi-js';

/**
 * Right-to-left text for the bank's PDFs (docs/decisions/056-fonts-for-every-name.md).
 *
 * pdfkit draws a string from left to right in the order it is given and does not reorder text.
 * fontkit, which lays each word out for it, shapes Arabic (joining forms) and reverses the glyphs
 * of a word in a right-to-left script, but only word by word: pdfkit splits at every space, so
 * "نور الهدى" would come out with its two words swapped, and a neutral character (an emoji, a
 * bracket) inside Arabic or Hebrew text would not move at all. So each line is put in visual
 * order here, by the Unicode Bidirectional Algorithm (bidi-js: levels, L1 and L2), one grapheme
 * cluster at a time so an emoji sequence or a letter with its marks is never taken apart, and
 * handed to pdfkit as runs to draw from left to right.
 */
const bidi = bidiFactory();

/** One grapheme cluster and the font that prints it. */
export interface PrintedCluster {
  /** A font name the document knows. */
  font: string;
  text: string;
}

export interface PdfTextRun {
  /** A font name the document knows (see pdf-fonts.ts). */
  font: string;
  text: string;
}

/**
 * The scripts of the embedded right-to-left fonts. fontkit lays out a word holding any of their
 * letters right to left (the first letter of a script other than Common decides), so such a word
 * must reach it in logical order; any other word is drawn in the order given.
 */
const rightToLeftScript = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;

/** A text's clusters with their resolved embedding levels, for drawing it line by line. */
export interface BidiText {
  clusters: readonly PrintedCluster[];
  text: string;
  embedding: EmbeddingLevels;
  /** The code unit each cluster starts at, and the text's length last. */
  starts: readonly number[];
}

/**
 * Every character whose bidirectional class is R or AL (the right-to-left blocks) and the controls
 * that open right-to-left text. A text without any is left to right throughout, and the algorithm
 * is not run for it: most texts, and a statement prints thousands.
 */
const mayRunRightToLeft = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u200f\u202b\u202e\u2067\u2068\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

export function resolveBidi(clusters: readonly PrintedCluster[]): BidiText {
  const starts = [0];
  for (const cluster of clusters) starts.push((starts.at(-1) ?? 0) + cluster.text.length);
  const text = clusters.map((cluster) => cluster.text).join('');
  const embedding = mayRunRightToLeft.test(text)
    ? // The direction of each text comes from its first letter (rules P2 and P3), as a browser
      // does with dir="auto": a name is its own paragraph, whatever language the document is in.
      bidi.getEmbeddingLevels(text, 'auto')
    : { levels: new Uint8Array(text.length), paragraphs: [{ start: 0, end: text.length - 1, level: 0 }] };
  return { clusters, text, embedding, starts };
}

/** Whether any character of the text is drawn right to left: if not, it prints in logical order. */
export function hasRightToLeft(resolved: BidiText): boolean {
  return resolved.embedding.levels.some((level) => level % 2 === 1);
}

/** Consecutive clusters in one font as one run, in the order given. */
export function groupRuns(clusters: Iterable<PrintedCluster>): PdfTextRun[] {
  const runs: PdfTextRun[] = [];
  for (const cluster of clusters) {
    const last = runs.at(-1);
    if (last?.font === cluster.font) last.text += cluster.text;
    else runs.push({ font: cluster.font, text: cluster.text });
  }
  return runs;
}

/**
 * The runs of the clusters [first, end) of a text, one line of it, in the order to draw them from
 * left to right, each run's text in the order pdfkit and fontkit need to show it as written.
 */
export function visualRuns(resolved: BidiText, first = 0, end = resolved.clusters.length): PdfTextRun[] {
  const { clusters, text, embedding, starts } = resolved;
  const startOf = (index: number) => starts[index] ?? text.length;
  const levelOf = (index: number) => embedding.levels[startOf(index)] ?? 0;
  const line = Array.from({ length: end - first }, (_, offset) => first + offset);
  if (line.every((index) => levelOf(index) % 2 === 0)) return groupRuns(line.map((index) => clusters[index]).filter((cluster) => cluster !== undefined));

  const lastCodeUnit = startOf(end) - 1;
  // bidi-js gives the stretches to reverse, one after another, in code units; a cluster's
  // characters share its level, so each stretch starts and ends on a cluster.
  const clusterAt = (codeUnit: number) => {
    let index = first;
    while (index + 1 < end && startOf(index + 1) <= codeUnit) index += 1;
    return index - first;
  };
  for (const [from, to] of bidi.getReorderSegments(text, embedding, startOf(first), lastCodeUnit)) {
    if (from === undefined || to === undefined) continue;
    const start = clusterAt(from);
    line.splice(start, clusterAt(to) - start + 1, ...line.slice(start, clusterAt(to) + 1).reverse());
  }
  // A bracket in right-to-left text is drawn as its mirror image: "(" closes on the left.
  const mirrored = bidi.getMirroredCharactersMap(text, embedding.levels, startOf(first), lastCodeUnit);

  const runs: PdfTextRun[] = [];
  let piece: { font: string; level: number; texts: string[] } | undefined;
  const finish = () => {
    if (!piece) return;
    const texts = rightToLeftScript.test(piece.texts.join('')) ? [...piece.texts].reverse() : piece.texts;
    const last = runs.at(-1);
    const joined = texts.join('');
    // Runs of one font that fontkit draws in the order given merge back: fewer font switches.
    if (last?.font === piece.font && !rightToLeftScript.test(last.text) && !rightToLeftScript.test(joined)) last.text += joined;
    else runs.push({ font: piece.font, text: joined });
    piece = undefined;
  };
  for (const index of line) {
    const cluster = clusters[index];
    if (!cluster) continue;
    const level = levelOf(index);
    const shown = mirrored.get(startOf(index)) ?? cluster.text;
    // pdfkit lays out each space-separated word alone, so a word is a piece of its own.
    const isSpace = cluster.text === ' ';
    if (piece && (piece.font !== cluster.font || piece.level !== level || isSpace || piece.texts.at(-1) === ' ')) finish();
    if (piece) piece.texts.push(shown);
    else piece = { font: cluster.font, level, texts: [shown] };
  }
  finish();
  return runs;
}
