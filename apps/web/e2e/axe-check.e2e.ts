import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';

/** What `expectNoAxeViolations` throws: Vitest's assertion error, carrying the list it compared. */
interface AxeFailure {
  actual: string[];
}

const pageWithViolations =
  '<html lang="en"><head><title>Two problems</title></head><body><main><h1>Two problems</h1>' +
  '<img src="data:,"><p style="color: #eee; background: #fff">Too pale to read</p></main></body></html>';
const cleanPage = '<html lang="en"><head><title>Fine</title></head><body><main><h1>Fine</h1><p>Readable</p></main></body></html>';

/**
 * The journeys' accessibility check runs axe-core from one injection per document (decision 084):
 * it must still find what axe-core finds, on the first check of a page and on a later one.
 */
describe.skipIf(!inject('chromiumPath'))('the journeys’ accessibility check', () => {
  const browser = useBrowser();

  it('names every violation, on the first check of a page and on the next, and passes a clean page', async () => {
    const { context, page } = await openPage(browser());
    await page.setContent(pageWithViolations);
    for (const check of ['first', 'second']) {
      const failure = await expectNoAxeViolations(page).then(
        () => undefined,
        (error: unknown) => error as AxeFailure,
      );
      expect(
        failure?.actual.map((line) => line.split(' ')[0]),
        `the ${check} check`,
      ).toEqual(['color-contrast', 'image-alt']);
      expect(failure?.actual.join('\n')).toContain('Element does not have an alt attribute');
    }
    await page.setContent(cleanPage);
    await expectNoAxeViolations(page);
    await context.close();
  });
});
