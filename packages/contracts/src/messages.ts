import type { Customer } from './auth.ts';
import type { PaymentStatus } from './payments.ts';

/**
 * Validation and result messages, worded as docs/product.md section 9 (the seed's sections 5 and 8) give them, spelling
 * corrected (docs/product.md D11). The server and the web forms show the same text.
 */
export const validationMessages = {
  required: 'field should not be empty',
  emailInvalid: 'email is not valid',
  numberInvalid: 'number is not valid',
  passwordTooShort: 'password should be at least 8 characters',
  passwordTooLong: 'password should be at most 128 characters',
  passwordTooCommon: 'this password is too common',
  passwordsDoNotMatch: 'passwords do not match',
  imageTypeInvalid: 'Image mime type is not valid',
  tooLong: 'this is too long',
  hiddenCharacters: 'remove the hidden control or text-direction characters',
  contactName: 'Please enter your name',
  contactEmail: 'Please enter your email',
  contactPhone: 'Please enter your number',
  contactSubject: 'Please enter your subject',
  contactMessage: 'Write your message',
  amountInvalid: 'amount is not valid',
  /** What a form says when the typed text is not an amount at all: an example helps more than 'not valid' (issue 18). */
  amountTypedInvalid: 'Enter an amount like 12.50',
  amountNotPositive: 'amount must be more than $0.00',
  amountFractionalCent: 'amount cannot have a fraction of a cent',
  amountTooLarge: 'amount must be at most $1,000,000.00',
  accountNumberInvalid: 'account number is not valid',
  routeNumberInvalid: 'routing number is not valid',
  /** A SWIFT/BIC code typed where a US routing number goes: say why it cannot work (decision 060). */
  routeNumberIsSwift: 'International transfers are not offered yet: enter the 9-digit US routing number, not a SWIFT/BIC code',
  cardNumberInvalid: 'card number is not valid',
  stepUpCodeInvalid: 'enter the 6-digit code',
} as const;

/**
 * What a screen says when the customer has no open account, true to why. The seed's 'account has not
 * been created for this user. contact customer care support' and 'No account found!' told a customer
 * who only waits for their identity check that something was wrong and sent them to customer care: the
 * script of fake banks (docs/product.md, non-negotiable 2; decision 057). Nothing is wrong, and nobody needs to be
 * called: the accounts open by themselves once the identity is confirmed.
 */
export const noAccountMessages = {
  identityNotSent: 'Your accounts open once we have checked your identity. Send us your identity document to start.',
  identityPending: 'Your accounts open once we have checked your identity, usually within a day. Nothing is wrong: we will email you as soon as they are open.',
  identityRefused:
    'We could not confirm your identity from the document you sent, so your accounts are not open yet. Send your document again and we will check it.',
  accountsClosed: 'You have no open accounts: your accounts are closed. Your history and statements are still here.',
} as const;

/** Which of `noAccountMessages` is true of a customer with no open account. */
export function noAccountMessage(identityStatus: Customer['identityStatus']): string {
  switch (identityStatus) {
    case 'not_submitted':
      return noAccountMessages.identityNotSent;
    case 'submitted':
      return noAccountMessages.identityPending;
    case 'rejected':
      return noAccountMessages.identityRefused;
    case 'approved':
      // Approval opens the accounts (onboarding/identity-review.ts): an approved customer without one has closed them.
      return noAccountMessages.accountsClosed;
  }
}

export const resultMessages = {
  networkError: 'network error',
  unexpectedApplicationError: 'Unexpected Application Error!',
  sandboxBanner: 'Sandbox: no real money',
  depositAccepted: 'Deposit was successful',
  /** The seed's 'withdrawal success', spelled as a sentence (D11); only once the money has moved. */
  withdrawalAccepted: 'Withdrawal successful',
  billPayNotApproved: 'Account has not been approved',
  billPayContactSupport: 'Contact customer care support to continue',
  fraudWarning: 'We will never ask you for a tax, COT, IMF, TAC, NRC or BSA code, or ask you to pay a fee to release your money',
} as const;

/**
 * The seed's '{amount} transferred successful' (section 4), spelled right (D11), the amount already
 * formatted. Only for a payment that has completed: see `paymentResultTitle` in the web for the others.
 */
export function transferredMessage(formattedAmount: string): string {
  return `${formattedAmount} transferred successfully`;
}

/** A payment's status in words, on every screen and document (the seed's 'active' is Completed). */
export const paymentStatusWords: Readonly<Record<PaymentStatus, string>> = {
  completed: 'Completed',
  pending: 'Pending',
  in_review: 'In review',
  rejected: 'Rejected',
  returned: 'Returned',
};
