import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { readablePdfText } from '../test/pdf-text.ts';
import { toolMissing } from '../test/statements.ts';
import { unicodeParagraph, unicodeTextAt, unicodeWidth } from './pdf-fonts.ts';

type Document = InstanceType<typeof PDFDocument>;

async function pdf(draw: (doc: Document) => void): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: 48 });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', resolve));
  draw(doc);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

describe('text in any script in the PDFs', () => {
  it('joins Arabic letters: a word is drawn narrower than its letters apart', async () => {
    await pdf((doc) => {
      doc.fontSize(20);
      const apart = ['ن', 'و', 'ر'].reduce((width, letter) => width + unicodeWidth(doc, letter, 'regular'), 0);
      expect(unicodeWidth(doc, 'نور', 'regular')).toBeLessThan(apart);
    });
  });

  it("prints the space after an emoji as a text space, not Noto Emoji's space an emoji wide", async () => {
    await pdf((doc) => {
      doc.fontSize(20);
      const space = unicodeWidth(doc, '🐝 a', 'regular') - unicodeWidth(doc, '🐝a', 'regular');
      expect(space).toBeGreaterThan(0);
      expect(space).toBeLessThan(0.4 * 20);
    });
  });

  describe.skipIf(toolMissing('pdftotext'))('the text pdftotext reads back', () => {
    it('wraps a paragraph holding Arabic and Hebrew to its width, each line in visual order', async () => {
      const message = 'Rent for نور الهدى and דוד כהן, paid on time 🌧️ شكرا للجميع';
      const file = await pdf((doc) => {
        doc.fontSize(11);
        unicodeParagraph(doc, message, 'regular', { x: 48, y: 48 }, { width: 150 });
        unicodeTextAt(doc, 'Below the paragraph', 'regular', 48, doc.y);
      });
      const lines = readablePdfText(file)
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
      expect(lines.length).toBeGreaterThan(2);
      expect(lines.slice(0, -1).join(' ')).toBe(message.normalize('NFKC'));
      expect(lines.at(-1)).toBe('Below the paragraph');
    });

    it('gives back each Arabic letter as written, letters whose forms share a body with others included', async () => {
      // ب ت ن ي share one dotless body in Noto Sans Arabic, ر and ز another: the first met named the rest.
      // (A required ligature, lam-alef or ya-noon, is one glyph for two letters, which pdftotext gives
      // back in reverse: words with one are left out here, decision 056.)
      const file = await pdf((doc) => unicodeTextAt(doc, 'بنت نور جزيرة', 'regular', 48, 48));
      expect(readablePdfText(file)).toContain('بنت نور جزيرة');
    });

    it("keeps every letter's text in a later PDF after a name whose letters are built from others (ñ is n and ~)", async () => {
      await pdf((doc) => unicodeTextAt(doc, 'Zoë 🐝 Núñez Łukasz', 'regular', 48, 48));
      const later = await pdf((doc) => unicodeTextAt(doc, 'Dinner with Łukasz', 'regular', 48, 48));
      expect(readablePdfText(later)).toContain('Dinner with Łukasz');
    });
  });
});
