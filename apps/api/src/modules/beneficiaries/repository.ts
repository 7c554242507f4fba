import type { z } from 'zod';
import type { accountTypeSchema } from '@strongroom/contracts/accounts.ts';
import type { BankType } from '@strongroom/contracts/beneficiaries.ts';
import type { Queryable } from '../../db/database.ts';

export type AccountType = z.infer<typeof accountTypeSchema>;

export interface BeneficiaryRow {
  id: string;
  bank_type: BankType;
  bank_name: string;
  account_name: string;
  account_number: string;
  route_number: string;
  name_of_country: string;
  account_type: AccountType | null;
  created_at: Date;
}

export interface NewBeneficiary {
  bankType: BankType;
  bankName: string;
  accountName: string;
  accountNumber: string;
  routeNumber: string;
  nameOfCountry: string;
  accountType: AccountType | null;
}

const columns = 'id, bank_type, bank_name, account_name, account_number, route_number, name_of_country, account_type, created_at';

export async function listBeneficiaries(db: Queryable, customerId: string, limit: number): Promise<BeneficiaryRow[]> {
  return db.query<BeneficiaryRow>(
    `SELECT ${columns} FROM beneficiaries WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT $2`,
    [customerId, limit],
  );
}

export async function countBeneficiaries(db: Queryable, customerId: string): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM beneficiaries WHERE customer_id = $1 AND deleted_at IS NULL', [
    customerId,
  ]);
  return row?.count ?? 0;
}

/**
 * Inserts unless an equal entry (same bank type, route and account number) is saved already, and
 * unless the customer has `limit` saved: the new row, or undefined when nothing was inserted.
 */
export async function insertBeneficiary(db: Queryable, customerId: string, beneficiary: NewBeneficiary, limit: number): Promise<BeneficiaryRow | undefined> {
  const [row] = await db.query<BeneficiaryRow>(
    `INSERT INTO beneficiaries (customer_id, bank_type, bank_name, account_name, account_number, route_number, name_of_country, account_type)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8
      WHERE (SELECT count(*) FROM beneficiaries WHERE customer_id = $1 AND deleted_at IS NULL) < $9
     ON CONFLICT (customer_id, bank_type, route_number, account_number) WHERE deleted_at IS NULL DO NOTHING
     RETURNING ${columns}`,
    [
      customerId,
      beneficiary.bankType,
      beneficiary.bankName,
      beneficiary.accountName,
      beneficiary.accountNumber,
      beneficiary.routeNumber,
      beneficiary.nameOfCountry,
      beneficiary.accountType,
      limit,
    ],
  );
  return row;
}

export async function softDeleteBeneficiary(db: Queryable, customerId: string, id: string): Promise<boolean> {
  const rows = await db.query('UPDATE beneficiaries SET deleted_at = now() WHERE id = $1 AND customer_id = $2 AND deleted_at IS NULL RETURNING 1', [
    id,
    customerId,
  ]);
  return rows.length === 1;
}

/** The type of an account of this bank that can still receive money, by its number. */
/** An open account of this bank by its number: whose it is, its type and its holder's name (as payments name them). */
export interface OpenAccountOfThisBank {
  customer_id: string;
  type: 'checking' | 'savings';
  holder_name: string;
}

export async function findOpenAccount(db: Queryable, accountNumber: string): Promise<OpenAccountOfThisBank | undefined> {
  const [row] = await db.query<OpenAccountOfThisBank>(
    `SELECT a.customer_id, a.type, c.first_name || ' ' || c.last_name AS holder_name
     FROM customer_accounts a JOIN customers c ON c.id = a.customer_id
     WHERE a.number = $1 AND a.status <> 'closed'`,
    [accountNumber],
  );
  return row;
}

/** Locks the customer's row, so that two additions at once cannot both pass the count. */
export async function lockCustomer(db: Queryable, customerId: string): Promise<void> {
  await db.query('SELECT 1 FROM customers WHERE id = $1 FOR UPDATE', [customerId]);
}
