/**
 * Where the browser goes once the customer has decided: the bank's authorization server, which
 * sends it on to the app (a full page load, not a route of this app). Only an http(s) address is
 * followed. An object, so tests can watch the navigation jsdom cannot perform.
 */
export const appNavigation = {
  leave(redirectTo: string): void {
    const target = new URL(redirectTo, window.location.href);
    if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('the bank answered an address that is not http(s)');
    window.location.assign(target.href);
  },
};
