/**
 * Names on the wire that the browser's public entry needs at once: the CSRF cookie and header, and
 * the error codes with their HTTP statuses. This file must not import zod: a contract module that
 * builds schemas is bundled whole, zod included, into every page that imports anything from it,
 * and the public pages have a 110 KB JavaScript budget.
 * errors.ts builds its zod schemas from these.
 */
export const csrfCookieName = 'csrf';
/**
 * The same cookie over HTTPS: the `__Host-` prefix makes the browser refuse it unless it is Secure,
 * for the whole site and from this host only, so a sibling subdomain cannot plant one.
 */
export const secureCsrfCookieName = '__Host-csrf';
/** The staff console's CSRF cookie: a staff session is a realm apart, with cookies of its own (D16). */
export const staffCsrfCookieName = 'staff_csrf';
export const secureStaffCsrfCookieName = '__Host-staff_csrf';
export const csrfHeaderName = 'x-csrf-token';

export const errorStatusByCode = {
  validation_failed: 400,
  bad_request: 400,
  unauthenticated: 401,
  step_up_required: 403,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  insufficient_funds: 422,
  /** A deposit above the customer's daily allowance; the message says what is left today. */
  deposit_limit_exceeded: 422,
  /** A deposit without a verified account at another bank of this customer's. */
  no_funding_source: 409,
  /** Money out of an account below zero after a returned deposit. */
  account_overdrawn: 409,
  /** A queue decision on something already decided (docs/product.md section 6). */
  already_decided: 409,
  /** A release at or above FOUR_EYES_CENTS needs a second, different staff member. */
  four_eyes_required: 403,
  /** Staff froze this customer: they can sign in and read, but no money moves. */
  account_frozen: 403,
  /** A card request from a customer with no account (seed section 5). */
  no_account: 409,
  /** A card request with under $500 available on savings (seed section 5, D12). */
  savings_balance_required: 422,
  /** A card request while another waits for approval. */
  card_pending_approval: 409,
  /** A card action on a card whose status does not allow it (closed, pending, rejected, frozen). */
  card_not_active: 409,
  /** A loan application while another is still waiting for a decision. */
  loan_application_open: 409,
  /** An early repayment above what the loan still owes (the message states the payoff amount). */
  loan_repayment_too_large: 422,
  /** An early repayment while an instalment is late: the late one is collected first. */
  loan_instalment_late: 409,
  /** Accepting a loan offer after its window closed: the offer lapsed (`expired`, decision 058). */
  offer_expired: 409,
  /** Accepting or declining a loan that is not an offer (still waiting for a decision, rejected or paid off). */
  loan_not_offered: 409,
  /** A new email address that another customer already uses (contact-details.ts). */
  email_taken: 409,
  /** A new phone number that another customer has already verified (decision 055). */
  phone_taken: 409,
  /** A contact change's link or code that expired, was used, or was tried too often: ask for a new one. */
  verification_expired: 400,
  /** A payee of this bank that is the customer's own account: their accounts are already on the transfer form (decision 060). */
  own_account_payee: 422,
  /** A payee of this bank whose name does not match the account's holder (the check paying makes, decision 060). */
  payee_name_mismatch: 422,
  /** Opening an account with less than its product's opening deposit (the message states it). */
  opening_deposit_too_low: 422,
  /** Closing an account something still depends on (the message says what). */
  account_in_use: 409,
  /** A product that does not fit the account or the change asked for (a savings product for a checking tier change). */
  product_not_allowed: 422,
  /** A product's new terms dated on or before the bank's date: a change never rewrites the past. */
  effective_date_in_past: 422,
  /** A fee already refunded, or with a refund waiting for its second approval. */
  fee_already_refunded: 409,
  /** Changing a scheduled payment's occurrence once its day's cut-off (ACH_CUTOFF) has passed: it is being paid. */
  past_cutoff: 409,
  /** Skipping a date on which the schedule has no occurrence to skip. */
  not_an_occurrence: 422,
  /** Changing a scheduled payment that was cancelled or has made its last payment. */
  schedule_ended: 409,
  /** A transaction already under a dispute that was not withdrawn. */
  already_disputed: 409,
  /** Reported more than 60 days after the statement that first showed the transaction (Regulation E). */
  dispute_window_passed: 422,
  /** A transaction that cannot be disputed: money in (other than a deposit that came in short), the bank's own lines, one still being made. */
  not_disputable: 422,
  /** A dispute action its state does not allow (a decision on a decided case, credit given twice). */
  dispute_state: 409,
  /** A posting or report dated into a business day that is already closed (issue 35: the books). */
  business_day_closed: 422,
  /** A statement file imported before (the same bytes). */
  already_imported: 409,
  /** A reconciliation exception already resolved. */
  already_resolved: 409,
  rate_limited: 429,
  service_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof errorStatusByCode;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(errorStatusByCode, code);
}
