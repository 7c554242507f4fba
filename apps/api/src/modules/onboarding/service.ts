import { randomUUID } from 'node:crypto';
import countries from 'i18n-iso-countries';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { OnboardingStep } from '@strongroom/contracts/auth.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { identityMessages, onboardingMessages, type IdentityFields, type PhoneSignupRequest } from '@strongroom/contracts/onboarding.ts';
import type { OwnIdentityStatus } from '@strongroom/contracts/staff-identity.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { encrypt, equalHashes, keyedHash, randomDigits } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { cleanImage } from '../../platform/uploads.ts';
import { findCustomerById, nextStepFor, setProfilePhoto, setVerifiedPhone } from '../customers/service.ts';
import { latestOwnIdentityReview } from './identity-reviews-repository.ts';
import {
  countPhoneCodeAttempt,
  findOwnedFile,
  insertIdentityReview,
  insertPhoneCode,
  insertStoredFile,
  isPhoneVerifiedByAnother,
  latestPhoneCode,
  markPhoneCodeUsed,
} from './repository.ts';

/** The sandbox's demo customer, whose sign-in the public settings offer. */
export { demoSignIn } from './sandbox-seed.ts';
/** Step-up codes of two customers never go to one phone (decision 055): the contact-details module checks a new number too. */
export { isPhoneVerifiedByAnother } from './repository.ts';

export interface OnboardingDependencies {
  db: Database;
  sms: SmsSender;
  storage: FileStorage;
  config: Pick<Config, 'bankName' | 'secrets'>;
  /** Queues the sandbox's automatic identity approval; undefined where staff decide. */
  scheduleAutoApproval?: (reviewId: string) => Promise<void>;
}

export const phoneCodeValidMs = 10 * 60 * 1_000;
export const phoneCodeMaxAttempts = 5;
export const phoneCodeResendIntervalMs = 60 * 1_000;
const profilePhotoMaxPixels = 512;

const stepOrder: readonly OnboardingStep[] = ['verify-email', 'phone', 'identity', 'profile-photo', 'dashboard'];
const stepNeeded: Record<OnboardingStep, string> = {
  'verify-email': 'Verify your email address first.',
  phone: 'Verify your phone number first.',
  identity: 'Send your identity document first.',
  'profile-photo': 'Add your profile photo first.',
  dashboard: 'This step is already done.',
};

/**
 * The server keeps the onboarding order (issue item 9): a step taken before its turn, or again once
 * done, is refused with 409 and says what to do instead.
 */
async function requireStep(db: Database, customerId: string, allowed: readonly OnboardingStep[]) {
  const customer = await findCustomerById(db, customerId);
  if (!customer) throw new AppError('unauthenticated', 'Please sign in to continue');
  const current = nextStepFor(customer);
  if (allowed.includes(current)) return customer;
  const isAhead = stepOrder.indexOf(current) > Math.max(...allowed.map((step) => stepOrder.indexOf(step)));
  throw new AppError('conflict', isAhead ? stepNeeded.dashboard : stepNeeded[current]);
}

/**
 * The ID number as a keyed hash of its letters and digits, upper-cased: "123-45-6789" and
 * "123 45 6789" are one number. Two customers with the same number are found by comparing hashes
 * (modules/customers/shared-identity.ts) without decrypting anyone's, and a stolen database alone
 * cannot try every number against it.
 */
export function idNumberHash(key: Buffer, idNumber: string): Buffer {
  return keyedHash(key, `id-number:${idNumber.toUpperCase().replace(/[^\p{L}\p{N}]/gu, '')}`);
}

/** Codes are stored as a keyed hash bound to the customer (platform/crypto.ts keyedHash). */
function phoneCodeHash(dependencies: OnboardingDependencies, customerId: string, code: string): Buffer {
  return keyedHash(dependencies.config.secrets.sessionSecret, `phone:${customerId}:${code}`);
}

async function sendPhoneCode(dependencies: OnboardingDependencies, actor: CustomerActor, phoneE164: string, country: string): Promise<void> {
  const code = randomDigits(businessConstants.phoneCodeDigits);
  await dependencies.db.transaction(async (tx) => {
    await insertPhoneCode(tx, {
      customerId: actor.customerId,
      phoneE164,
      country,
      codeHash: phoneCodeHash(dependencies, actor.customerId, code),
      validForMs: phoneCodeValidMs,
    });
  });
  await dependencies.sms.send({ to: phoneE164, text: `Your ${dependencies.config.bankName} code is ${code}. It expires in 10 minutes. Never share it.` });
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'onboarding.phone_code_sent',
      outcome: 'success',
      details: { country },
    }),
  );
}

export async function startPhoneVerification(dependencies: OnboardingDependencies, actor: CustomerActor, input: PhoneSignupRequest): Promise<void> {
  await requireStep(dependencies.db, actor.customerId, ['phone']);
  const country = input.countryCode as CountryCode;
  const parsed = parsePhoneNumberFromString(input.phoneNumber, country);
  if (!parsed?.isValid() || parsed.country !== country) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { phoneNumber: onboardingMessages.phoneInvalid } });
  }
  await sendPhoneCode(dependencies, actor, parsed.number, country);
}

export async function resendPhoneCode(dependencies: OnboardingDependencies, actor: CustomerActor): Promise<void> {
  await requireStep(dependencies.db, actor.customerId, ['phone']);
  const latest = await latestPhoneCode(dependencies.db, actor.customerId);
  if (!latest) throw new AppError('conflict', 'Enter your phone number first.');
  const waitedMs = Date.now() - latest.created_at.getTime();
  if (waitedMs < phoneCodeResendIntervalMs) {
    throw new AppError('rate_limited', 'We just sent a code. You can ask for another in a minute.', {
      retryAfterSeconds: Math.ceil((phoneCodeResendIntervalMs - waitedMs) / 1_000),
    });
  }
  await sendPhoneCode(dependencies, actor, latest.phone_e164, latest.phone_country);
}

/**
 * Four digits, ten minutes, five tries, one use (ASVS 6.5 / 6.6). A number another customer has
 * verified is refused here, after the code proves the phone is in hand (decision 055).
 */
export async function verifyPhoneCode(dependencies: OnboardingDependencies, actor: CustomerActor, code: string): Promise<void> {
  await requireStep(dependencies.db, actor.customerId, ['phone']);
  const outcome = await dependencies.db.transaction(async (tx) => {
    const latest = await latestPhoneCode(tx, actor.customerId);
    if (!latest) return 'missing' as const;
    if (latest.used_at || latest.expires_at.getTime() <= Date.now() || latest.attempts >= phoneCodeMaxAttempts) return 'expired' as const;
    const expected = phoneCodeHash(dependencies, actor.customerId, code);
    if (!equalHashes(Buffer.from(latest.code_hash), expected)) {
      await countPhoneCodeAttempt(tx, latest.id);
      return 'wrong' as const;
    }
    await markPhoneCodeUsed(tx, latest.id);
    // Checked only once the code is right: until then, answering "taken" would tell anyone typing
    // numbers which ones are customers'. The code is spent either way.
    if (await isPhoneVerifiedByAnother(tx, actor.customerId, latest.phone_e164)) return 'taken' as const;
    await setVerifiedPhone(tx, actor.customerId, latest.phone_e164, latest.phone_country);
    return 'verified' as const;
  });
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'onboarding.phone_verification',
      outcome: outcome === 'verified' ? 'success' : 'failure',
      details: { outcome },
    }),
  );
  if (outcome === 'missing') throw new AppError('conflict', 'Enter your phone number first.');
  // Step-up codes of two customers never go to one phone (decision 055): this customer enters another number.
  if (outcome === 'taken') throw new AppError('conflict', identityMessages.phoneTaken, { fields: { phoneNumber: identityMessages.phoneTaken } });
  if (outcome === 'expired') throw new AppError('validation_failed', onboardingMessages.codeExpired, { fields: { code: onboardingMessages.codeExpired } });
  if (outcome === 'wrong') throw new AppError('validation_failed', onboardingMessages.codeWrong, { fields: { code: onboardingMessages.codeWrong } });
}

async function storeImage(
  dependencies: OnboardingDependencies,
  customerId: string,
  purpose: 'identity_document' | 'profile_photo',
  image: { bytes: Buffer; contentType: string },
) {
  const fileId = randomUUID();
  const storageKey = randomUUID();
  await dependencies.storage.put(storageKey, image.bytes);
  return { id: fileId, ownerCustomerId: customerId, purpose, contentType: image.contentType, byteSize: image.bytes.length, storageKey };
}

/**
 * Identity: the document image (D3 rules), the kind of ID and its number (encrypted at rest and kept
 * masked), the date of birth, country, and the US address: street of one or two lines, city, state,
 * ZIP code (decision 055). It opens a review; in the sandbox it is approved automatically after a delay.
 */
export async function submitIdentity(
  dependencies: OnboardingDependencies,
  actor: CustomerActor,
  fields: IdentityFields,
  document: Buffer | undefined,
): Promise<void> {
  await requireStep(dependencies.db, actor.customerId, ['identity']);
  if (!countries.isValid(fields.country)) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { country: 'choose a country' } });
  }
  const image = await cleanImage('document', document);
  const file = await storeImage(dependencies, actor.customerId, 'identity_document', image);
  const idNumber = fields.idNumber.replace(/\s+/g, ' ');
  const reviewId = await dependencies.db.transaction(async (tx) => {
    await insertStoredFile(tx, file);
    return insertIdentityReview(tx, {
      customerId: actor.customerId,
      documentFileId: file.id,
      idNumberEncrypted: encrypt(dependencies.config.secrets.encryptionKey, Buffer.from(idNumber, 'utf8')),
      idNumberHash: idNumberHash(dependencies.config.secrets.sessionSecret, idNumber),
      idNumberLast4: idNumber.replace(/[^A-Za-z0-9]/g, '').slice(-4),
      country: fields.country,
      state: fields.state,
      address: fields.address,
      identification: { idType: fields.idType, dateOfBirth: fields.dateOfBirth, city: fields.city, zipCode: fields.zipCode },
    });
  });
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'onboarding.identity_submitted',
      subject: reviewId,
      outcome: 'success',
      details: { fileId: file.id },
    }),
  );
  await dependencies.scheduleAutoApproval?.(reviewId);
}

export async function saveProfilePhoto(dependencies: OnboardingDependencies, actor: CustomerActor, photo: Buffer | undefined): Promise<void> {
  await requireStep(dependencies.db, actor.customerId, ['profile-photo', 'dashboard']);
  const image = await cleanImage('photo', photo, { squareMaxPixels: profilePhotoMaxPixels });
  const file = await storeImage(dependencies, actor.customerId, 'profile_photo', image);
  await dependencies.db.transaction(async (tx) => {
    await insertStoredFile(tx, file);
    await setProfilePhoto(tx, actor.customerId, file.id);
  });
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, {
      action: 'onboarding.profile_photo',
      outcome: 'success',
      details: { fileId: file.id },
    }),
  );
}

/** The customer's latest identity review: after a rejection the registration page shows why. */
export async function ownIdentityStatus(db: Database, customerId: string): Promise<OwnIdentityStatus> {
  const review = await latestOwnIdentityReview(db, customerId);
  return review ? { status: review.status, reason: review.status === 'rejected' ? review.reason : null } : { status: 'not_submitted', reason: null };
}

/** One of the customer's own stored images; a malformed, unknown or another customer's id is not found. */
export async function ownedImage(dependencies: Pick<OnboardingDependencies, 'db' | 'storage'>, customerId: string, fileId: string) {
  const isUuid = /^[0-9a-f-]{36}$/i.test(fileId);
  const file = isUuid ? await findOwnedFile(dependencies.db, fileId, customerId) : undefined;
  if (!file) throw new AppError('not_found', 'No such file');
  const bytes = await dependencies.storage.get(file.storage_key);
  return { bytes, contentType: file.content_type, fileName: `${file.id}.${file.content_type === 'image/png' ? 'png' : 'jpg'}` };
}
