import type { Customer, OnboardingStep } from '@strongroom/contracts/auth.ts';
import type { CustomerRow } from './repository.ts';

/**
 * The onboarding state machine (seed section 4, D6): each step needs the one before it. An identity
 * review in progress lets the customer go on to the photo and the dashboard, where the accounts
 * show as inactive until it is approved; a rejected one sends them back to resubmit.
 */
export function nextStepFor(customer: CustomerRow): OnboardingStep {
  if (!customer.email_verified_at) return 'verify-email';
  if (!customer.phone_verified_at) return 'phone';
  if (customer.identity_status === 'not_submitted' || customer.identity_status === 'rejected') return 'identity';
  if (!customer.profile_photo_file_id) return 'profile-photo';
  return 'dashboard';
}

/** The columns of a customer that every view of them shows: the name, and the email and phone with whether each is verified. */
export type CustomerContactRow = Pick<CustomerRow, 'id' | 'first_name' | 'last_name' | 'email' | 'email_verified_at' | 'phone_e164' | 'phone_verified_at'>;

/** A customer's name, email and phone as their own pages, the back office and their data export show them. */
export function presentCustomerContact(customer: CustomerContactRow) {
  return {
    id: customer.id,
    firstName: customer.first_name,
    lastName: customer.last_name,
    email: customer.email,
    emailVerified: customer.email_verified_at !== null,
    phoneNumber: customer.phone_e164,
    phoneVerified: customer.phone_verified_at !== null,
  };
}

export function presentCustomer(customer: CustomerRow): Customer {
  return {
    ...presentCustomerContact(customer),
    country: customer.identity_country,
    identityStatus: customer.identity_status,
    accountVerified: customer.identity_status === 'approved',
    profilePhotoUrl: customer.profile_photo_file_id ? `/api/v1/files/${customer.profile_photo_file_id}` : null,
  };
}
