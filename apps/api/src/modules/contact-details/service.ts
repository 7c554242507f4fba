import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import countries from 'i18n-iso-countries';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import {
  contactDetailsMessages,
  emailChangeValidHours,
  phoneChangeMaxAttempts,
  phoneChangeValidMinutes,
  type ChangeStartedResponse,
  type ContactDetails,
  type PhoneChangeRequest,
  type PostalAddress,
} from '@strongroom/contracts/contact-details.ts';
import { onboardingMessages } from '@strongroom/contracts/onboarding.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { equalHashes, keyedHash, randomDigits, randomToken, sha256 } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { maskPhone } from '../step-up/service.ts';
import { findCustomerById, normalizeEmail, setVerifiedPhone, type CustomerRow } from '../customers/service.ts';
import { isPhoneVerifiedByAnother } from '../onboarding/service.ts';
import { withStepUp, type SecurityDependencies } from '../security/service.ts';
import {
  countPhoneChangeAttempt,
  currentAddress,
  insertEmailChange,
  insertPhoneChange,
  isEmailUsedByAnother,
  lockEmailChange,
  lockLatestPhoneChange,
  markEmailChangeUsed,
  markPhoneChangeUsed,
  pendingEmailChange,
  pendingPhoneChange,
  saveAddress,
  setEmail,
} from './repository.ts';

/**
 * Self-service contact details (issue 39 item 7, docs/decisions/059). Each change starts behind a
 * step-up answered with a factor the customer already has (security/service.ts `withStepUp`: the SMS
 * code to the phone on file, a passkey or the app), however recent the sign-in: a stolen password
 * alone must not move the account's email or phone, through which it is recovered. A new email
 * counts once its link (to the new address) is followed, a new phone once its code (to the new
 * number) is confirmed; the old address or number is told. Every step is an audit row, which the
 * customer's security timeline reads.
 */
/** The postal address staff see on the customer's page (customer-care). */
export { currentAddress };

export interface ContactDetailsDependencies extends SecurityDependencies {
  sms: SmsSender;
  config: Pick<Config, 'bankName' | 'secrets' | 'publicUrl'>;
}

export const emailChangeValidMs = emailChangeValidHours * 60 * 60 * 1_000;
export const phoneChangeValidMs = phoneChangeValidMinutes * 60 * 1_000;

/** "j•••@example.com": enough for the owner to recognise, in audit rows and notices. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '•••' : `${email.charAt(0)}•••${email.slice(at)}`;
}

function audit(actor: CustomerActor, action: string, outcome: 'success' | 'failure', details: Record<string, string | number | boolean | null> = {}) {
  return auditEntryOf(actor, { action, outcome, details });
}

async function requireCustomer(dependencies: ContactDetailsDependencies, customerId: string): Promise<CustomerRow> {
  const customer = await findCustomerById(dependencies.db, customerId);
  if (!customer) throw new AppError('unauthenticated', 'Please sign in to continue');
  return customer;
}

function fieldError(field: string, message: string): AppError {
  return new AppError('validation_failed', 'Some fields are not valid', { fields: { [field]: message } });
}

export async function contactDetailsOf(db: Queryable, customerId: string): Promise<ContactDetails> {
  const customer = await findCustomerById(db, customerId);
  if (!customer) throw new AppError('unauthenticated', 'Please sign in to continue');
  const email = await pendingEmailChange(db, customerId);
  const phone = await pendingPhoneChange(db, customerId, phoneChangeMaxAttempts);
  return {
    email: customer.email,
    phone: customer.phone_e164 && customer.phone_verified_at ? { number: customer.phone_e164, country: customer.phone_country } : null,
    address: await currentAddress(db, customerId),
    pendingEmail: email ? { email: email.new_email, expiresAt: email.expires_at.toISOString() } : null,
    pendingPhone: phone ? { sentTo: maskPhone(phone.phone_e164), expiresAt: phone.expires_at.toISOString() } : null,
  };
}

// --- Email ------------------------------------------------------------------------------------

/**
 * Behind the step-up: a link to the new address (single-use, 24 hours, its token stored as a
 * SHA-256 hash, as sign-up's verification link). An address another customer uses is refused only
 * once the step-up is answered, so that it tells nobody without the customer's phone who banks here.
 */
export async function startEmailChange(
  dependencies: ContactDetailsDependencies,
  actor: CustomerActor,
  newEmail: string,
  stepUpChallengeId: string | undefined,
): Promise<ChangeStartedResponse> {
  const customer = await requireCustomer(dependencies, actor.customerId);
  if (normalizeEmail(newEmail) === normalizeEmail(customer.email)) throw fieldError('email', contactDetailsMessages.sameEmail);
  const token = randomToken();
  const expiresAt = await withStepUp(dependencies, actor, 'email-change', stepUpChallengeId, async (tx) => {
    if (await isEmailUsedByAnother(tx, actor.customerId, newEmail)) return undefined;
    const expires = await insertEmailChange(tx, { tokenHash: sha256(token), customerId: actor.customerId, newEmail, validForMs: emailChangeValidMs });
    await recordAudit(tx, audit(actor, 'customer.email_change_requested', 'success', { to: maskEmail(newEmail), reauthenticatedBy: 'step_up' }));
    return expires;
  });
  if (!expiresAt) {
    await recordAudit(dependencies.db, audit(actor, 'customer.email_change_requested', 'failure', { reason: 'email_taken' }));
    throw new AppError('email_taken', contactDetailsMessages.emailTaken, { fields: { email: contactDetailsMessages.emailTaken } });
  }
  const { bankName, publicUrl } = dependencies.config;
  await dependencies.mailer.send({
    to: newEmail,
    subject: `Confirm your new email address for ${bankName}`,
    text:
      `Hello ${customer.first_name},\n\nYou asked to use this address for your ${bankName} account. Open this link while signed in to confirm it. ` +
      `It works once, for ${emailChangeValidHours} hours:\n\n${publicUrl}/email-change/${token}\n\n` +
      `Until you do, we keep writing to your current address. If you did not ask for this, ignore this email.\n\n${bankName}`,
  });
  return { sentTo: newEmail.trim(), expiresAt: expiresAt.toISOString() };
}

/**
 * Following the link, signed in as the customer who asked: the email changes (verified), the old
 * address is told. A token of another customer's answers like an unknown one (404); a used,
 * replaced or expired one answers `verification_expired`.
 */
export async function confirmEmailChange(dependencies: ContactDetailsDependencies, actor: CustomerActor, token: string): Promise<{ email: string }> {
  const customer = await requireCustomer(dependencies, actor.customerId);
  const tokenHash = sha256(token);
  const outcome = await dependencies.db.transaction(async (tx) => {
    const change = await lockEmailChange(tx, actor.customerId, tokenHash);
    if (!change) return { kind: 'missing' as const };
    if (!change.live) return { kind: 'expired' as const };
    if (await isEmailUsedByAnother(tx, actor.customerId, change.new_email)) return { kind: 'taken' as const };
    await markEmailChangeUsed(tx, tokenHash);
    await setEmail(tx, actor.customerId, change.new_email);
    await recordAudit(tx, audit(actor, 'customer.email_changed', 'success', { from: maskEmail(customer.email), to: maskEmail(change.new_email) }));
    return { kind: 'changed' as const, email: change.new_email };
  });
  if (outcome.kind !== 'changed') {
    await recordAudit(dependencies.db, audit(actor, 'customer.email_changed', 'failure', { reason: outcome.kind }));
    if (outcome.kind === 'missing') throw new AppError('not_found', contactDetailsMessages.linkInvalid);
    if (outcome.kind === 'expired') throw new AppError('verification_expired', contactDetailsMessages.linkInvalid);
    throw new AppError('email_taken', contactDetailsMessages.emailTaken);
  }
  const { bankName } = dependencies.config;
  await dependencies.mailer.send({
    to: customer.email,
    subject: `Your ${bankName} email address was changed`,
    text:
      `Hello ${customer.first_name},\n\nThe email address of your ${bankName} account was changed to ${maskEmail(outcome.email)} on ${new Date().toUTCString()}. ` +
      `We will write there from now on.\n\nIf you did not change it, contact us now: call us, or reset your password from the sign-in page.\n\n${bankName}`,
  });
  return { email: outcome.email };
}

// --- Phone ------------------------------------------------------------------------------------

function phoneCodeHash(dependencies: ContactDetailsDependencies, customerId: string, code: string): Buffer {
  return keyedHash(dependencies.config.secrets.sessionSecret, `phone-change:${customerId}:${code}`);
}

/** Sign-up's check (libphonenumber-js): a valid number of the chosen country, as E.164. */
export function parsePhone(input: PhoneChangeRequest): { number: string; country: string } | undefined {
  const country = input.countryCode as CountryCode;
  const parsed = parsePhoneNumberFromString(input.phoneNumber, country);
  return parsed?.isValid() && parsed.country === country ? { number: parsed.number, country } : undefined;
}

/** Behind the step-up: a code by SMS to the new number (sign-up's length, ten minutes, five tries). */
export async function startPhoneChange(
  dependencies: ContactDetailsDependencies,
  actor: CustomerActor,
  input: PhoneChangeRequest,
  stepUpChallengeId: string | undefined,
): Promise<ChangeStartedResponse> {
  const customer = await requireCustomer(dependencies, actor.customerId);
  const phone = parsePhone(input);
  if (!phone) throw fieldError('phoneNumber', onboardingMessages.phoneInvalid);
  if (customer.phone_verified_at && customer.phone_e164 === phone.number) throw fieldError('phoneNumber', contactDetailsMessages.samePhone);
  const code = randomDigits(businessConstants.phoneCodeDigits);
  const expiresAt = await withStepUp(dependencies, actor, 'phone-change', stepUpChallengeId, async (tx) => {
    const expires = await insertPhoneChange(tx, {
      customerId: actor.customerId,
      phoneE164: phone.number,
      country: phone.country,
      codeHash: phoneCodeHash(dependencies, actor.customerId, code),
      validForMs: phoneChangeValidMs,
    });
    await recordAudit(tx, audit(actor, 'customer.phone_change_requested', 'success', { to: maskPhone(phone.number), reauthenticatedBy: 'step_up' }));
    return expires;
  });
  await dependencies.sms.send({
    to: phone.number,
    text: `${dependencies.config.bankName}: your code is ${code}. It confirms this number as your new phone number and nothing else. It expires in ${phoneChangeValidMinutes} minutes. Never share it.`,
  });
  return { sentTo: maskPhone(phone.number), expiresAt: expiresAt.toISOString() };
}

/**
 * The code from the new number: the phone changes (verified), and the old number and the email are
 * told. A number another customer verified is refused here, once the code proves the phone is in
 * hand (decision 055); the code is spent either way.
 */
export async function confirmPhoneChange(
  dependencies: ContactDetailsDependencies,
  actor: CustomerActor,
  code: string,
): Promise<{ phone: { number: string; country: string } }> {
  const customer = await requireCustomer(dependencies, actor.customerId);
  const outcome = await dependencies.db.transaction(async (tx) => {
    const change = await lockLatestPhoneChange(tx, actor.customerId, phoneChangeMaxAttempts);
    if (!change) return { kind: 'missing' as const };
    if (!change.live) return { kind: 'expired' as const };
    if (!equalHashes(Buffer.from(change.code_hash), phoneCodeHash(dependencies, actor.customerId, code))) {
      await countPhoneChangeAttempt(tx, change.id);
      return { kind: 'wrong' as const };
    }
    await markPhoneChangeUsed(tx, change.id);
    if (await isPhoneVerifiedByAnother(tx, actor.customerId, change.phone_e164)) return { kind: 'taken' as const };
    await setVerifiedPhone(tx, actor.customerId, change.phone_e164, change.phone_country);
    const from = customer.phone_e164 ? maskPhone(customer.phone_e164) : null;
    await recordAudit(tx, audit(actor, 'customer.phone_changed', 'success', { from, to: maskPhone(change.phone_e164) }));
    return { kind: 'changed' as const, number: change.phone_e164, country: change.phone_country };
  });
  if (outcome.kind !== 'changed') {
    await recordAudit(dependencies.db, audit(actor, 'customer.phone_changed', 'failure', { reason: outcome.kind }));
    if (outcome.kind === 'missing') throw new AppError('conflict', contactDetailsMessages.noPhoneChange);
    if (outcome.kind === 'expired')
      throw new AppError('verification_expired', contactDetailsMessages.codeExpired, { fields: { code: contactDetailsMessages.codeExpired } });
    if (outcome.kind === 'taken')
      throw new AppError('phone_taken', contactDetailsMessages.phoneTaken, { fields: { phoneNumber: contactDetailsMessages.phoneTaken } });
    throw fieldError('code', contactDetailsMessages.codeWrong);
  }
  const { bankName } = dependencies.config;
  const notice = `The phone number of your ${bankName} account was changed to ${maskPhone(outcome.number)} on ${new Date().toUTCString()}. Security codes go there from now on. If you did not change it, contact us now.`;
  if (customer.phone_e164 && customer.phone_e164 !== outcome.number) await dependencies.sms.send({ to: customer.phone_e164, text: `${bankName}: ${notice}` });
  await dependencies.mailer.send({
    to: customer.email,
    subject: `Your ${bankName} phone number was changed`,
    text: `Hello ${customer.first_name},\n\n${notice}\n\n${bankName}`,
  });
  return { phone: { number: outcome.number, country: outcome.country } };
}

// --- Postal address ---------------------------------------------------------------------------

/** `country` must be a real ISO 3166 country, as at sign-up's identity step. */
export function assertKnownCountry(address: PostalAddress, field = 'country'): void {
  if (!countries.isValid(address.country)) throw fieldError(field, 'choose a country');
}

/** Behind the step-up; the customer is told by email. */
export async function changeAddress(
  dependencies: ContactDetailsDependencies,
  actor: CustomerActor,
  address: PostalAddress,
  stepUpChallengeId: string | undefined,
): Promise<PostalAddress> {
  const customer = await requireCustomer(dependencies, actor.customerId);
  assertKnownCountry(address);
  await withStepUp(dependencies, actor, 'address-change', stepUpChallengeId, async (tx) => {
    await saveAddress(tx, actor.customerId, address);
    await recordAudit(tx, audit(actor, 'customer.address_changed', 'success', { city: address.city, state: address.state, reauthenticatedBy: 'step_up' }));
  });
  const { bankName } = dependencies.config;
  await dependencies.mailer.send({
    to: customer.email,
    subject: `Your ${bankName} postal address was changed`,
    text: `Hello ${customer.first_name},\n\nThe postal address of your ${bankName} account was changed on ${new Date().toUTCString()}; post goes to ${address.city}, ${address.state} from now on.\n\nIf you did not change it, contact us now.\n\n${bankName}`,
  });
  return address;
}
