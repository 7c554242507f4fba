import type { SecurityEventKind } from '@strongroom/contracts/security-events.ts';

/**
 * The one place that says which audit rows are a customer's security events and how each reads
 * on the security timeline (issue 15, item 2). An action of one of these families that is not
 * named below still shows, with a generic wording: a new kind of event is never hidden.
 */
export const securityActionPatterns = [
  'auth.%',
  'step_up.%',
  'customer.%',
  'card.revealed',
  'beneficiary.%',
  'bill_payee.%',
  'passkey.%',
  'totp.%',
  'session.%',
  'password.%',
  'security.%',
  'onboarding.phone_verification',
  // Connected apps (issue 38): the customer's own consents. Staff's data_recipient.* actions are not a customer's event.
  'connected_app.%',
] as const;

type Outcome = 'success' | 'failure' | 'denied';
type Wording = { kind: SecurityEventKind; title: string | (Partial<Record<Outcome, string>> & { success: string }) };

/** The action a "This wasn't me" report records. */
export const notMeAction = 'customer.reported_not_me';

const wordings: Readonly<Record<string, Wording>> = {
  'auth.login': {
    kind: 'sign_in',
    title: { success: 'Signed in', failure: 'Failed sign-in: wrong password', denied: 'Sign-in refused after too many tries' },
  },
  'auth.logout': { kind: 'sign_out', title: 'Signed out' },
  'auth.signup': { kind: 'account', title: 'Account created' },
  'auth.email_verification': { kind: 'account', title: { success: 'Email address verified', failure: 'Email verification link refused' } },
  'auth.password_reset_requested': { kind: 'password', title: 'Password reset requested' },
  'auth.password_reset': { kind: 'password', title: { success: 'Password reset with an email link', failure: 'Password reset refused' } },
  'onboarding.phone_verification': { kind: 'account', title: { success: 'Phone number verified', failure: 'Wrong phone verification code' } },
  'step_up.challenge_sent': { kind: 'step_up', title: 'Security code sent by text message' },
  'step_up.code_resent': { kind: 'step_up', title: 'Security code sent again' },
  'step_up.challenge_refused': { kind: 'step_up', title: 'Security code not sent: too many were asked for in a few minutes' },
  'step_up.verify': { kind: 'step_up', title: { success: 'Security code confirmed', failure: 'Wrong or expired security code' } },
  'card.revealed': { kind: 'card', title: 'Card number and CVV shown' },
  'beneficiary.added': { kind: 'payee', title: 'New payee saved' },
  'bill_payee.added': { kind: 'payee', title: 'New bill payee saved' },
  'bill_payee.deleted': { kind: 'payee', title: 'Bill payee removed' },
  'customer.password_changed': { kind: 'password', title: { success: 'Password changed', failure: 'Password change refused' } },
  'customer.password_change_failed': { kind: 'password', title: 'Password change refused: the current password was wrong' },
  'customer.totp_enrolled': { kind: 'second_factor', title: 'Authenticator app added' },
  'customer.totp_removed': { kind: 'second_factor', title: 'Authenticator app removed' },
  'customer.recovery_code_used': { kind: 'second_factor', title: 'Recovery code used' },
  'customer.passkey_added': { kind: 'passkey', title: 'Passkey added' },
  'customer.passkey_removed': { kind: 'passkey', title: 'Passkey removed' },
  'customer.passkey_renamed': { kind: 'passkey', title: 'Passkey renamed' },
  'customer.session_ended': { kind: 'session', title: 'A signed-in device was signed out' },
  'customer.sessions_revoked': { kind: 'session', title: 'All other devices were signed out' },
  'customer.data_export': { kind: 'account', title: 'Your data was downloaded' },
  'customer.email_change_requested': {
    kind: 'account',
    title: { success: 'New email address asked for: a link was sent to it', failure: 'New email address refused' },
  },
  'customer.email_changed': { kind: 'account', title: { success: 'Email address changed', failure: 'Email change link refused' } },
  'customer.phone_change_requested': { kind: 'account', title: 'New phone number asked for: a code was sent to it' },
  'customer.phone_changed': { kind: 'account', title: { success: 'Phone number changed', failure: 'Wrong or expired code for a new phone number' } },
  'customer.address_changed': { kind: 'account', title: 'Postal address changed' },
  'connected_app.consented': { kind: 'connected_app', title: 'You let an app see your data' },
  'connected_app.refused': { kind: 'connected_app', title: 'You said no to an app that asked to see your data' },
  'connected_app.revoked': { kind: 'connected_app', title: "You ended an app's access: it can no longer see your data" },
  [notMeAction]: { kind: 'report', title: 'You reported an event ("This wasn\'t me")' },
};

/** Kinds guessed from a family, for an action not named above. */
const familyKinds: readonly [prefix: string, kind: SecurityEventKind][] = [
  ['auth.', 'sign_in'],
  ['step_up.', 'step_up'],
  ['passkey.', 'passkey'],
  ['customer.passkey', 'passkey'],
  ['totp.', 'second_factor'],
  ['customer.totp', 'second_factor'],
  ['session.', 'session'],
  ['customer.session', 'session'],
  ['password.', 'password'],
  ['customer.password', 'password'],
  ['beneficiary.', 'payee'],
  ['bill_payee.', 'payee'],
  ['connected_app.', 'connected_app'],
];

export const genericTitle = 'Security change to your account';

export function describeSecurityAction(action: string, outcome: Outcome): { kind: SecurityEventKind; title: string } {
  const wording = wordings[action];
  if (wording) {
    const title = typeof wording.title === 'string' ? wording.title : (wording.title[outcome] ?? wording.title.success);
    return { kind: wording.kind, title };
  }
  const kind = familyKinds.find(([prefix]) => action.startsWith(prefix))?.[1] ?? 'other';
  return { kind, title: outcome === 'success' ? genericTitle : `${genericTitle} (refused)` };
}
