import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { createOnboardedCustomer, type OnboardedCustomer } from '../modules/onboarding/create-onboarded-customer.ts';
import { insertIdentityReview } from '../modules/onboarding/repository.ts';
import { encrypt } from '../platform/crypto.ts';
import type { FileStorage } from '../platform/storage.ts';

/** A customer row only (no verification), for tests of sessions and guards. */
export async function insertBareCustomer(db: Database, email = `${randomUUID()}@example.com`): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO customers (first_name, last_name, email, email_normalized, password_hash)
     VALUES ('Test', 'Customer', $1, lower($1), 'not-a-real-hash') RETURNING id`,
    [email],
  );
  if (!row) throw new Error('no customer inserted');
  return row.id;
}

export const testPassword = 'correct horse battery staple';

/** A fully onboarded customer with open accounts, as the ops CLI makes one. */
export function onboardedCustomer(
  dependencies: { db: Database; storage: FileStorage; encryptionKey: Buffer },
  options: { email?: string; fundCents?: bigint; phone?: string; firstName?: string; lastName?: string } = {},
): Promise<OnboardedCustomer> {
  return createOnboardedCustomer(dependencies, {
    email: options.email ?? `${randomUUID()}@example.com`,
    password: testPassword,
    fundCents: options.fundCents ?? 0n,
    phone: options.phone ?? uniqueTestPhone(),
    firstName: options.firstName,
    lastName: options.lastName,
  });
}

let nextPhone = Math.floor(Math.random() * 9_000);
/** A distinct US number in the 555-01xx fiction range per call, so each customer's codes are their own. */
export function uniqueTestPhone(): string {
  nextPhone = (nextPhone + 1) % 10_000;
  return `+1202555${String(nextPhone).padStart(4, '0')}`;
}

/** An identity review waiting for staff, sent without a photo (an ID number ending 6789, an Illinois address): its id. */
export function waitingIdentityReview(db: Database, encryptionKey: Buffer, customerId: string): Promise<string> {
  return insertIdentityReview(db, {
    customerId,
    documentFileId: null,
    idNumberEncrypted: encrypt(encryptionKey, Buffer.from('123-45-6789', 'utf8')),
    idNumberLast4: '6789',
    country: 'US',
    state: 'Illinois',
    address: '1 Main Street, Springfield',
  });
}

/** What the identity step asks for (decision 055), filled in as a US customer would. */
export const identityFields = {
  idType: 'ssn',
  idNumber: '123-45-6789',
  dateOfBirth: '1985-06-15',
  country: 'US',
  address: '1 Main Street',
  city: 'Springfield',
  state: 'IL',
  zipCode: '62701',
};
