import type { Locator, Page } from 'playwright-core';

/** The longest a list may take to show its next page on a busy machine. */
const pageWaitMs = 30_000;

/**
 * Lists show a page at a time (queues 25, oldest first) and the journeys share one server, so what a
 * journey looks for may be a few pages down: clicks "Show more" (or "Load more") and waits for that
 * page's request to settle, until `target` is on screen or there is nothing more to show.
 */
export async function showMoreUntil(page: Page, target: Locator): Promise<void> {
  const more = page.getByRole('button', { name: /^(Show|Load) more$/ });
  // The first page is there once either what we look for or the button to show more is.
  await target.or(more).first().waitFor({ timeout: pageWaitMs });
  for (let round = 0; round < 20; round += 1) {
    if ((await target.count()) > 0) return;
    if ((await more.count()) === 0) break;
    const nextPage = page.waitForResponse((response) => response.request().method() === 'GET' && response.url().includes('cursor='), { timeout: pageWaitMs });
    await more.first().click();
    await nextPage;
  }
  await target.first().waitFor({ timeout: 5_000 });
}
