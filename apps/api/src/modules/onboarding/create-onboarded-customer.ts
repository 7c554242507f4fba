import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Database } from '../../db/database.ts';
import { encrypt } from '../../platform/crypto.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { hashPassword, isCommonPassword } from '../../platform/passwords.ts';
import { openCustomerAccounts, type OpenedAccount } from '../accounts/service.ts';
import { recordBankPayment } from '../payments/service.ts';
import { insertCustomer, normalizeEmail } from '../customers/service.ts';

export interface OnboardedCustomerInput {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  /** E.164, verified as if by SMS. */
  phone?: string;
  fundCents?: bigint;
}

export interface OnboardedCustomer {
  userId: string;
  accounts: OpenedAccount[];
}

export class CustomerExistsError extends Error {
  constructor(email: string) {
    super(`A customer with the email ${email} already exists`);
    this.name = 'CustomerExistsError';
  }
}

/**
 * A customer who has finished onboarding (email and phone verified, identity approved, accounts
 * open), for the ops CLI, the sandbox's demo customer and tests. The checking account is funded
 * from the bank's capital through the ledger.
 */
export async function createOnboardedCustomer(
  dependencies: { db: Database; storage: FileStorage; encryptionKey: Buffer },
  input: OnboardedCustomerInput,
): Promise<OnboardedCustomer> {
  const { db, encryptionKey } = dependencies;
  if (input.password.length < 8 || input.password.length > 128 || isCommonPassword(input.password)) {
    throw new Error('The password must be 8 to 128 characters and not a common password');
  }
  const passwordHash = await hashPassword(input.password);
  // A plain avatar stands in for the profile photo such a customer never uploaded.
  const avatar = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 30, g: 94, b: 255 } } })
    .png()
    .toBuffer();
  const avatarKey = randomUUID();
  await dependencies.storage.put(avatarKey, avatar);
  const userId = await db.transaction(async (tx) => {
    const id = await insertCustomer(tx, { firstName: input.firstName ?? 'Demo', lastName: input.lastName ?? 'Customer', email: input.email, passwordHash });
    if (!id) throw new CustomerExistsError(normalizeEmail(input.email));
    await tx.query(`UPDATE customers SET email_verified_at = now(), phone_e164 = $2, phone_country = $3, phone_verified_at = now() WHERE id = $1`, [
      id,
      input.phone ?? '+12025550100',
      'US',
    ]);
    await tx.query(
      `INSERT INTO identity_reviews (customer_id, id_number_encrypted, id_number_last4, country, state, address, status, decided_at, decided_by)
       VALUES ($1, $2, '0000', 'US', 'District of Columbia', '1 Demo Street, Washington', 'approved', now(), 'ops')`,
      [id, encrypt(encryptionKey, Buffer.from('000-00-0000'))],
    );
    const [file] = await tx.query<{ id: string }>(
      `INSERT INTO stored_files (owner_customer_id, purpose, content_type, byte_size, storage_key) VALUES ($1, 'profile_photo', 'image/png', $2, $3) RETURNING id`,
      [id, avatar.length, avatarKey],
    );
    await tx.query('UPDATE customers SET profile_photo_file_id = $2 WHERE id = $1', [id, file?.id]);
    return id;
  });
  const accounts = await openCustomerAccounts(db, userId);
  const checking = accounts.find((account) => account.type === 'checking');
  if (input.fundCents && input.fundCents > 0n && checking) {
    await recordBankPayment(db, {
      customerId: userId,
      kind: 'funding',
      fromAccount: null,
      toAccount: { id: checking.id, ledgerAccountId: checking.ledgerAccountId, name: 'Easy Checking', number: checking.number },
      amountCents: input.fundCents,
      message: 'Opening deposit',
    });
  }
  return { userId, accounts };
}
