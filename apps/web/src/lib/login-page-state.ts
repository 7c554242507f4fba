/**
 * What another page can tell /login when it sends the customer there (react-router location
 * state): that the idle timer signed them out, or a message to show above the form.
 */
export type LoginPageState = { reason: 'timed-out' } | { notice: string } | Record<string, never>;
