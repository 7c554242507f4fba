/**
 * The public marketing pages: what the sitemap lists and what search engines should index. The
 * build reads this file too (vite.config.ts), so it imports nothing.
 */
export const marketingPagePaths = ['/', '/about', '/savings', '/current', '/cards', '/faq', '/contact'] as const;
