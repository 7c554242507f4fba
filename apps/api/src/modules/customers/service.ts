/**
 * What the other modules may use of a customer: the record and its changes (sign-up, email and
 * phone verification, photo, password) and what a session answers about it. Creating a customer who
 * is already onboarded, with accounts and money, is the onboarding module's (it depends on this one,
 * never the other way round).
 */
export {
  findCustomerByEmail,
  findCustomerById,
  insertCustomer,
  markEmailVerified,
  normalizeEmail,
  setProfilePhoto,
  setVerifiedPhone,
  updatePasswordHash,
  type CustomerRow,
} from './repository.ts';
export { nextStepFor, presentCustomerContact, type CustomerContactRow } from './presenter.ts';
export { customersSharingIdentity, type SharingCustomer } from './shared-identity.ts';
export { meAnswerFor, sessionAnswerFor } from './session-answer.ts';
