import type { PublicSettings } from '@strongroom/contracts/settings.ts';
import { apiRequest, ApiError, isRecord } from './api-client.ts';
import { createPublicResource, type PublicResourceState } from './public-resource.ts';

/**
 * `GET /api/v1/settings/public`: the bank's address, phone and support email for the footer and
 * the contact page, and in a sandbox the demo customer's sign-in for the login page. docs/product.md
 * D7: fetched at once, cached for the visit, never blocking a render.
 *
 * This is the one request of the public site, which has a 110 KB JavaScript budget, so it uses a
 * module-level cache instead of TanStack Query, and checks the answer by hand instead of with the
 * zod schema (the server validates its answer with `publicSettingsSchema` before sending it).
 */
function parseDemoSignIn(value: unknown): PublicSettings['demoSignIn'] {
  if (!isRecord(value)) return undefined;
  const { email, password } = value;
  return typeof email === 'string' && typeof password === 'string' ? { email, password } : undefined;
}

/** The home page's figures; one of the wrong shape is left out rather than shown wrong. */
function parseHomeCounters(value: unknown): PublicSettings['homeCounters'] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((counter: unknown) => {
    if (!isRecord(counter)) return [];
    const { label, value: figure, atLeast } = counter;
    return typeof label === 'string' && Number.isSafeInteger(figure) && typeof figure === 'number' && figure >= 0 && typeof atLeast === 'boolean'
      ? [{ label, value: figure, atLeast }]
      : [];
  });
}

export function parsePublicSettings(data: unknown): PublicSettings {
  if (isRecord(data)) {
    const { bankName, mode, address, phone, supportEmail } = data;
    if (
      typeof bankName === 'string' &&
      (mode === 'sandbox' || mode === 'production') &&
      typeof address === 'string' &&
      typeof phone === 'string' &&
      typeof supportEmail === 'string'
    ) {
      const demoSignIn = parseDemoSignIn(data.demoSignIn);
      return { bankName, mode, address, phone, supportEmail, homeCounters: parseHomeCounters(data.homeCounters), ...(demoSignIn ? { demoSignIn } : {}) };
    }
  }
  throw new ApiError({ status: 200, code: 'internal_error', message: 'The bank settings answer has an unexpected shape' });
}

export function getPublicSettings(): Promise<PublicSettings> {
  return apiRequest('/settings/public', { parse: parsePublicSettings });
}

export type PublicSettingsState = PublicResourceState<PublicSettings>;

const publicSettings = createPublicResource(getPublicSettings);

/** Starts the request unless it is running or has succeeded; a failed one is asked again by the next page. */
export const loadPublicSettings = publicSettings.load;

/** Test seam: forget the cached answer. */
export const resetPublicSettingsCache = publicSettings.reset;

/**
 * The settings' state. React adopts the main content after the header and footer, whose effect may
 * have loaded the settings by then: the settings show right after adopting.
 */
export const usePublicSettings = publicSettings.use;
