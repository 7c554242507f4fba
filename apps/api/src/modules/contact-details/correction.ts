import { contactDetailsMessages, type ContactCorrectionResponse, type PostalAddress } from '@strongroom/contracts/contact-details.ts';
import type { PhoneSignupRequest } from '@strongroom/contracts/onboarding.ts';
import { onboardingMessages } from '@strongroom/contracts/onboarding.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { maskPhone } from '../step-up/service.ts';
import { findCustomerById, normalizeEmail, setVerifiedPhone } from '../customers/service.ts';
import { isPhoneVerifiedByAnother } from '../onboarding/service.ts';
import { currentAddress, isEmailUsedByAnother, saveAddress, setEmail, supersedeEmailChanges, supersedePhoneChanges } from './repository.ts';
import { assertKnownCountry, maskEmail, parsePhone } from './service.ts';

/**
 * Staff correct a customer's email, phone or postal address (issue 39 item 7): `customers.correct`,
 * a reason, one audit row with what was and what is, masked as elsewhere (never a whole address or
 * number), and the customer is told at the old and the new places and in their notifications. What
 * staff set counts as verified: they checked it with the customer. A change the customer had waiting
 * for its link or code ends.
 */
export interface CorrectionDependencies {
  db: Database;
  mailer: Mailer;
  sms: SmsSender;
  liveEvents: LiveEvents;
  config: Pick<Config, 'bankName'>;
}

export interface Correction {
  email?: string | undefined;
  phone?: PhoneSignupRequest | undefined;
  address?: PostalAddress | undefined;
  reason: string;
}

function addressWords(address: PostalAddress | null): string | null {
  return address ? `${address.city}, ${address.state} ${address.zipCode}` : null;
}

function fieldError(field: string, message: string): AppError {
  return new AppError('validation_failed', 'Some fields are not valid', { fields: { [field]: message } });
}

export async function correctContactDetails(
  dependencies: CorrectionDependencies,
  actor: StaffActor,
  customerId: string,
  correction: Correction,
): Promise<ContactCorrectionResponse> {
  const { db } = dependencies;
  const customer = isUuid(customerId) ? await findCustomerById(db, customerId) : undefined;
  if (!customer) throw new AppError('not_found', 'No such customer');
  const phone = correction.phone ? parsePhone(correction.phone) : undefined;
  if (correction.phone && !phone) throw fieldError('phone.phoneNumber', onboardingMessages.phoneInvalid);
  if (correction.address) assertKnownCountry(correction.address, 'address.country');
  const addressBefore = await currentAddress(db, customerId);

  const changed: ContactCorrectionResponse['changed'] = [];
  const details: Record<string, string | null> = { reason: correction.reason };
  const refusal = await db.transaction(async (tx) => {
    if (correction.email !== undefined && normalizeEmail(correction.email) !== normalizeEmail(customer.email)) {
      if (await isEmailUsedByAnother(tx, customerId, correction.email)) return 'email_taken' as const;
      await setEmail(tx, customerId, correction.email);
      await supersedeEmailChanges(tx, customerId);
      changed.push('email');
      Object.assign(details, { emailBefore: maskEmail(customer.email), emailAfter: maskEmail(correction.email) });
    }
    if (phone && phone.number !== customer.phone_e164) {
      if (await isPhoneVerifiedByAnother(tx, customerId, phone.number)) return 'phone_taken' as const;
      await setVerifiedPhone(tx, customerId, phone.number, phone.country);
      await supersedePhoneChanges(tx, customerId);
      changed.push('phone');
      Object.assign(details, { phoneBefore: customer.phone_e164 ? maskPhone(customer.phone_e164) : null, phoneAfter: maskPhone(phone.number) });
    }
    if (correction.address) {
      await saveAddress(tx, customerId, correction.address);
      changed.push('address');
      Object.assign(details, { addressBefore: addressWords(addressBefore), addressAfter: addressWords(correction.address) });
    }
    if (changed.length > 0) {
      await notifyCustomer(tx, {
        customerId,
        kind: 'contact_details',
        name: 'Your contact details were updated',
        text: `Our team updated your ${changed.join(', ')} at your request. If you did not ask for this, tell us in Messages.`,
        link: '/settings/contact',
      });
    }
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'customer.contact_corrected',
        subject: customerId,
        outcome: 'success',
        details: { ...details, changed: changed.join(',') },
      }),
    );
    return undefined;
  });
  if (refusal === 'email_taken') throw new AppError('email_taken', contactDetailsMessages.emailTaken, { fields: { email: contactDetailsMessages.emailTaken } });
  if (refusal === 'phone_taken')
    throw new AppError('phone_taken', contactDetailsMessages.phoneTaken, { fields: { 'phone.phoneNumber': contactDetailsMessages.phoneTaken } });
  if (changed.length > 0) dependencies.liveEvents.publish(customerId, 'notifications');
  await tellCustomer(dependencies, customer, changed, correction, phone?.number);

  const after = await findCustomerById(db, customerId);
  return {
    email: after?.email ?? customer.email,
    phone: after?.phone_e164 && after.phone_verified_at ? { number: after.phone_e164, country: after.phone_country } : null,
    address: await currentAddress(db, customerId),
    changed,
  };
}

/** The old places hear of it as well as the new: a correction nobody asked for is noticed. */
async function tellCustomer(
  dependencies: CorrectionDependencies,
  customer: { email: string; first_name: string; phone_e164: string | null },
  changed: ContactCorrectionResponse['changed'],
  correction: Correction,
  newPhone: string | undefined,
): Promise<void> {
  if (changed.length === 0) return;
  const { bankName } = dependencies.config;
  const text = `Hello ${customer.first_name},\n\nOur team updated the ${changed.join(', ')} of your ${bankName} account on ${new Date().toUTCString()}, at your request.\n\nIf you did not ask for this, contact us now.\n\n${bankName}`;
  const subject = `Your ${bankName} contact details were updated`;
  await dependencies.mailer.send({ to: customer.email, subject, text });
  if (changed.includes('email') && correction.email) await dependencies.mailer.send({ to: correction.email, subject, text });
  if (changed.includes('phone') && customer.phone_e164 && newPhone) {
    await dependencies.sms.send({
      to: customer.phone_e164,
      text: `${bankName}: our team changed the phone number of your account to ${maskPhone(newPhone)}. If you did not ask for this, contact us now.`,
    });
  }
}
