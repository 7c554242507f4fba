import type { z } from 'zod';
import type { Beneficiary, createBeneficiaryRequestSchema } from '@strongroom/contracts/beneficiaries.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { compareNames } from '../../platform/name-match.ts';
import { auditEntryOf, type AuditAction, type CustomerActor } from '../../platform/request-actor.ts';
import {
  countBeneficiaries,
  findOpenAccount,
  insertBeneficiary,
  listBeneficiaries,
  lockCustomer,
  softDeleteBeneficiary,
  type BeneficiaryRow,
  type NewBeneficiary,
} from './repository.ts';

export type { NewBeneficiary } from './repository.ts';

/** Enough for any household's payees; a bound on the list every transfer form loads. */
export const maxBeneficiariesPerCustomer = 200;

export const beneficiaryMessages = {
  noAccountAtThisBank: 'No account at this bank has this number',
  alreadySaved: 'This beneficiary is already saved',
  limitReached: `You can save at most ${maxBeneficiariesPerCustomer} beneficiaries; delete one to add another`,
  notFound: 'This beneficiary does not exist',
  ownAccount: 'This is one of your own accounts: choose it on the transfer form under "Transfer within my accounts"',
  nameDoesNotMatch: 'This name does not match the name on the account. Check the name with the person you want to pay.',
  nameIsClose: (holderName: string) => `The name on this account is ${holderName}. Save the payee with that name if it is who you want to pay.`,
} as const;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function present(row: BeneficiaryRow): Beneficiary {
  return {
    id: row.id,
    accountName: row.account_name,
    accountNumber: row.account_number,
    routeNumber: row.route_number,
    bankName: row.bank_name,
    nameOfCountry: row.name_of_country,
    bankType: row.bank_type,
    accountType: row.account_type,
    createdAt: row.created_at.toISOString(),
  };
}

/** Newest first; the limit on saving keeps the list within one answer. */
export async function listSavedBeneficiaries(db: Queryable, customerId: string): Promise<Beneficiary[]> {
  const rows = await listBeneficiaries(db, customerId, maxBeneficiariesPerCustomer);
  return rows.map(present);
}

/**
 * A payee at this bank: an open account of someone else's, whose name matches the one typed as a
 * payment to it is checked (Confirmation of Payee, platform/name-match.ts). A close match tells
 * the name on the account, so a typo can be fixed; no match tells nothing more (decision 060).
 */
async function checkPayeeOfThisBank(db: Queryable, customerId: string, accountNumber: string, accountName: string): Promise<NewBeneficiary['accountType']> {
  const account = await findOpenAccount(db, accountNumber);
  if (!account) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { accountNumber: beneficiaryMessages.noAccountAtThisBank } });
  }
  if (account.customer_id === customerId) {
    throw new AppError('own_account_payee', beneficiaryMessages.ownAccount, { fields: { accountNumber: beneficiaryMessages.ownAccount } });
  }
  const nameCheck = compareNames(accountName, account.holder_name);
  if (nameCheck === 'match') return account.type;
  const message = nameCheck === 'close_match' ? beneficiaryMessages.nameIsClose(account.holder_name) : beneficiaryMessages.nameDoesNotMatch;
  throw new AppError('payee_name_mismatch', message, { fields: { accountName: message } });
}

/**
 * Saves a payee. One of this bank's accounts must exist, be open, be someone else's and carry the
 * name typed; its type is kept so the transfer form can fill it in. Another bank's account cannot
 * be checked here (the payment rail checks it). The customer's row is locked while counting, so
 * two additions at once cannot pass the limit together.
 */
export async function addBeneficiary(db: Database, actor: CustomerActor, input: z.output<typeof createBeneficiaryRequestSchema>): Promise<Beneficiary> {
  const { customerId } = actor;
  const accountType = input.bankType === 'mybank' ? await checkPayeeOfThisBank(db, customerId, input.accountNumber, input.accountName) : null;
  const row = await db.transaction(async (tx) => {
    await lockCustomer(tx, customerId);
    if ((await countBeneficiaries(tx, customerId)) >= maxBeneficiariesPerCustomer) throw new AppError('conflict', beneficiaryMessages.limitReached);
    const inserted = await insertBeneficiary(tx, customerId, { ...input, accountType }, maxBeneficiariesPerCustomer);
    if (!inserted) throw new AppError('conflict', beneficiaryMessages.alreadySaved);
    await auditNewPayee(tx, actor, inserted);
    return inserted;
  });
  return present(row);
}

/** Someone else's id, an unknown one and a malformed one all answer the same 404. */
export async function deleteBeneficiary(db: Queryable, customerId: string, id: string): Promise<void> {
  if (!uuidPattern.test(id) || !(await softDeleteBeneficiary(db, customerId, id))) throw notFound(beneficiaryMessages.notFound);
}

/**
 * A transfer with addToFavorites saves its payee inside the payment's transaction. An equal entry
 * already saved, or a full list, is not an error: the payment is what the customer asked for, the
 * favourite is a convenience. It takes no lock, so payments at the same moment may pass the limit
 * by their number; the form's additions (addBeneficiary) are the ones held to it exactly.
 */
export async function saveBeneficiaryFromPayment(db: Queryable, customerId: string, input: NewBeneficiary): Promise<void> {
  const inserted = await insertBeneficiary(db, customerId, input, maxBeneficiariesPerCustomer);
  if (inserted) await auditNewPayee(db, { customerId }, inserted);
}

/**
 * A new payee is a security event (the customer's security timeline lists it): last 4 digits only.
 * Saved from the form, the entry is the request's actor's; saved by a payment's commit, where no
 * request is at hand, it is the customer's without an origin, as it always was.
 */
async function auditNewPayee(db: Queryable, actor: CustomerActor | { customerId: string }, row: BeneficiaryRow): Promise<void> {
  const entry: AuditAction = {
    action: 'beneficiary.added',
    subject: row.id,
    outcome: 'success',
    details: { bankType: row.bank_type, last4: row.account_number.slice(-4) },
  };
  await recordAudit(db, 'requestId' in actor ? auditEntryOf(actor, entry) : { actorType: 'customer', actorId: actor.customerId, ...entry });
}
