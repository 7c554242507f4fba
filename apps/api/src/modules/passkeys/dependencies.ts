import type { StepUpDependencies } from '../step-up/service.ts';
import type { AuthDependencies } from '../auth/service.ts';
import { findCustomerById } from '../customers/service.ts';
import type { WebAuthnDependencies } from './webauthn.ts';

export interface PasskeyDependencies extends WebAuthnDependencies {
  stepUp: StepUpDependencies;
  /** The auth module's sign-in: the same audit row, device cookie and new-browser notification as a password. */
  auth: AuthDependencies;
}

/** Each passkey added or removed is mailed to the customer, as every change of a way into the account is. */
export async function tellCustomer(dependencies: PasskeyDependencies, customerId: string, subject: string, body: string): Promise<void> {
  const customer = await findCustomerById(dependencies.db, customerId);
  if (!customer) return;
  await dependencies.auth.mailer.send({ to: customer.email, subject, text: `Hello ${customer.first_name},\n\n${body}\n\n${dependencies.config.bankName}` });
}
