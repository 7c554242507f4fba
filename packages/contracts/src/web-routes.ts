/**
 * Every path the single-page app answers, shared with the server so that an unknown path gets a
 * real 404 status (with the app's not-found page) instead of 200. `:param` matches one segment.
 */
export const publicRoutePaths = [
  '/',
  '/about',
  '/savings',
  '/current',
  '/cards',
  '/faq',
  '/contact',
  '/login',
  '/signup',
  '/verify/:email',
  '/verification/:token',
  '/registeration',
  '/forgetpassword',
  '/resetpassword/:token',
  '/phonesignup',
  '/phoneverification',
  '/success',
  '/receipts/verify/:reference',
  '/tax',
  '/bsa',
  '/tac',
  '/nrc',
  '/imf',
  '/cot',
] as const;

export const customerRoutePaths = [
  '/profilephoto',
  '/dashboard',
  '/home',
  '/new-card',
  '/transfer',
  '/send-account',
  '/send-card',
  '/billpay',
  '/billpay/:category',
  '/notifications',
  '/transaction-history',
  '/profile',
  '/settings',
  '/settings/activity',
  '/settings/security',
  '/settings/contact',
  '/settings/connected-apps',
  '/connect/:uid',
  '/email-change/:token',
  '/privacy',
  '/help',
  '/messages',
  '/messages/:id',
  '/deposit',
  '/deposit/sources',
  '/withdraw',
  '/beneficiaries',
  '/add-beneficiaries',
  '/invite',
  '/card',
  '/card-form',
  '/new-card-form',
  '/card-details/:id',
  '/loan',
  '/loan/:id',
  '/otp',
  '/accounts/open',
  '/payments/scheduled',
  '/payments/scheduled/new',
  '/payments/scheduled/:id',
  '/disputes',
  '/disputes/new',
  '/disputes/:id',
] as const;

/**
 * The seed's code-gate routes. They show the fraud warning of docs/product.md D1 to anyone, signed in or
 * not: someone being scammed may arrive from a link.
 */
export const fraudWarningRoutePaths = ['/tax', '/bsa', '/tac', '/nrc', '/imf', '/cot'] as const;

export const staffRoutePaths = ['/ops', '/ops/*'] as const;

/** Sandbox-only pages; in production they do not exist. */
export const sandboxRoutePaths = ['/dev/mail'] as const;

export function matchesRoutePath(pattern: string, pathname: string): boolean {
  if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -2);
    return pathname === prefix || pathname.startsWith(`${prefix}/`);
  }
  const patternParts = pattern.split('/');
  const pathParts = pathname.replace(/\/+$/, '').split('/');
  if (pattern === '/') return pathname === '/';
  if (patternParts.length !== pathParts.length) return false;
  return patternParts.every((part, index) => {
    const actual = pathParts[index] ?? '';
    return part.startsWith(':') ? actual.length > 0 : part === actual;
  });
}
