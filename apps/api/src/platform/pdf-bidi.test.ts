import { describe, expect, it } from 'vitest';
import { resolveBidi, visualRuns, type PrintedCluster } from './pdf-bidi.ts';

/** Clusters as pdf-fonts.ts makes them, the font named by script so the runs read plainly. */
function clusters(text: string): PrintedCluster[] {
  const segments = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map(({ segment }) => segment);
  const result: PrintedCluster[] = [];
  for (const segment of segments) {
    const font = /\p{Script=Arabic}/u.test(segment)
      ? 'arabic'
      : /\p{Script=Hebrew}/u.test(segment)
        ? 'hebrew'
        : /\p{Extended_Pictographic}/u.test(segment)
          ? 'emoji'
          : /\p{Script=Han}/u.test(segment)
            ? 'chinese'
            : segment === ' '
              ? (result.at(-1)?.font ?? 'latin')
              : 'latin';
    result.push({ font, text: segment });
  }
  return result;
}

const drawn = (text: string) => visualRuns(resolveBidi(clusters(text)));

describe('right-to-left text in visual order for pdfkit', () => {
  it('leaves a text with no right-to-left letter in logical order, one run a font', () => {
    expect(drawn('Zoë 🐝 Núñez 李')).toEqual([
      { font: 'latin', text: 'Zoë ' },
      { font: 'emoji', text: '🐝 ' },
      { font: 'latin', text: 'Núñez ' },
      { font: 'chinese', text: '李' },
    ]);
  });

  it('draws the words of an Arabic text from right to left, each word in logical order for fontkit to shape and turn', () => {
    expect(drawn('نور الهدى')).toEqual([
      { font: 'arabic', text: 'الهدى' },
      { font: 'arabic', text: ' ' },
      { font: 'arabic', text: 'نور' },
    ]);
  });

  it('keeps a left-to-right text in its order around a Hebrew name, the name read from the right', () => {
    expect(drawn('Lunch with דוד כהן and 李')).toEqual([
      { font: 'latin', text: 'Lunch with ' },
      { font: 'hebrew', text: 'כהן' },
      { font: 'hebrew', text: ' ' },
      { font: 'hebrew', text: 'דוד' },
      { font: 'hebrew', text: ' ' },
      { font: 'latin', text: 'and ' },
      { font: 'chinese', text: '李' },
    ]);
  });

  it('takes the direction of a text from its first letter: one that starts in Hebrew puts what follows on the left', () => {
    expect(drawn('דוד כהן 李').map((run) => run.text)).toEqual(['李', ' ', 'כהן', ' ', 'דוד']);
  });

  it('moves an emoji inside Arabic text with the words around it, never taking a joined emoji apart', () => {
    // The space after the emoji is in its font (a space joins the run before it) and is drawn with it.
    expect(drawn('نور 👩‍💻 علي')).toEqual([
      { font: 'arabic', text: 'علي' },
      { font: 'emoji', text: ' 👩‍💻' },
      { font: 'arabic', text: ' ' },
      { font: 'arabic', text: 'نور' },
    ]);
  });

  it('mirrors brackets in right-to-left text, so they still open towards what they hold', () => {
    expect(drawn('نور (علي)').map((run) => run.text)).toEqual(['(', 'علي', ')', ' ', 'نور']);
  });

  it('keeps the digits of a number in an Arabic text left to right', () => {
    expect(drawn('عام 2026').map((run) => run.text)).toEqual(['2026', ' ', 'عام']);
  });
});
