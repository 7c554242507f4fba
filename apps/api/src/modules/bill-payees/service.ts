import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { billerAccountNumberRegExp, type BillerPaymentMethod } from '@strongroom/contracts/billers.ts';
import type { BillPayee, createBillPayeeRequestSchema } from '@strongroom/contracts/bill-payees.ts';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { encrypt, keyedHash } from '../../platform/crypto.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { billerById } from '../billers/service.ts';
import {
  countBillPayees,
  findPayeeToPay,
  insertBillPayee,
  listBillPayeeRows,
  lockCustomer,
  mayPayBills,
  softDeleteBillPayee,
  type BillPayeeRow,
} from './repository.ts';

/**
 * Bill payees (issue 33 item 2; docs/bill-pay.md): a biller of the directory and the customer's
 * account number there, checked against the biller's pattern, kept encrypted (as funding sources
 * keep theirs) with its last four characters for display; the whole number is never answered.
 */
export interface BillPayeeDependencies {
  db: Database;
  config: Pick<Config, 'secrets'>;
}

/** Far more billers than a household pays; a bound on the list Bill Pay loads. */
export const maxBillPayeesPerCustomer = 100;
/** The contract's cap on a number typed (contracts' bill-payees.ts): nothing longer is matched against a pattern. */
export const maxBillerAccountNumberLength = 40;
/**
 * A NACHA entry's individual identification number, 15 characters, carries the customer's number
 * at a biller paid by ACH: that is how the biller knows whose bill is paid (modules/ach). A longer
 * number cannot be sent whole, so a payee with one is refused for such a biller.
 */
export const maxAchBillerAccountNumberLength = 15;

export const billPayeeMessages = {
  notApproved: resultMessages.billPayNotApproved,
  chooseBiller: 'Choose a biller from the list',
  looksLike: (billerName: string, example: string) => `An account number at ${billerName} looks like ${example}`,
  tooLongForAch: (billerName: string) =>
    `An account number at ${billerName} is at most ${maxAchBillerAccountNumberLength} characters long: check the number on your bill`,
  alreadySaved: (billerName: string) => `You already have this account at ${billerName} as a payee`,
  limitReached: `You can save at most ${maxBillPayeesPerCustomer} bill payees; delete one to add another`,
  notFound: 'This bill payee does not exist',
  deleted: 'This payee was deleted: add it again to pay it',
  billerInactive: (billerName: string) => `${billerName} can no longer be paid through Bill Pay`,
} as const;

function present(row: BillPayeeRow): BillPayee {
  return {
    id: row.id,
    billerId: row.biller_id,
    billerName: row.biller_name,
    category: row.category,
    nickname: row.nickname,
    accountEnding: row.account_ending,
    createdAt: row.created_at.toISOString(),
  };
}

function fieldError(field: string, message: string): AppError {
  return new AppError('validation_failed', 'Some fields are not valid', { fields: { [field]: message } });
}

/** `GET /bill-payees`: the customer's payees, deleted ones left out, by nickname. */
export async function listBillPayees(db: Queryable, customerId: string): Promise<BillPayee[]> {
  return (await listBillPayeeRows(db, customerId, maxBillPayeesPerCustomer)).map(present);
}

/** The same biller and number always hash alike for this bank, and to nothing readable. */
function accountKeyOf(secret: Buffer, billerId: string, accountNumber: string): Buffer {
  return keyedHash(secret, `bill-payee:${billerId}:${accountNumber}`);
}

/**
 * `POST /bill-payees`. A customer whose identity is not approved, or who has no open account, pays
 * no bills (403, the message Bill Pay's tiles show). The biller must be one customers can choose;
 * the number must match its pattern, whole, and is capped in length before it is matched; a biller
 * paid by ACH takes at most 15 characters (the NACHA field). The same biller and number twice is a
 * conflict. The customer's row is locked while counting, so two additions at once cannot pass the
 * limit together. Audited with the biller and the last four characters only.
 */
export async function addBillPayee(
  dependencies: BillPayeeDependencies,
  actor: CustomerActor,
  input: z.output<typeof createBillPayeeRequestSchema>,
): Promise<BillPayee> {
  const { db, config } = dependencies;
  if (!(await mayPayBills(db, actor.customerId))) throw new AppError('forbidden', billPayeeMessages.notApproved);
  const biller = await billerById(db, input.billerId);
  if (!biller?.active) throw fieldError('billerId', billPayeeMessages.chooseBiller);
  const accountNumber = input.accountNumber;
  const pattern = billerAccountNumberRegExp(biller.accountNumberPattern);
  if (accountNumber.length > maxBillerAccountNumberLength || !pattern?.test(accountNumber)) {
    throw fieldError('accountNumber', billPayeeMessages.looksLike(biller.name, biller.accountNumberExample));
  }
  if (biller.paymentMethod === 'ach' && accountNumber.length > maxAchBillerAccountNumberLength) {
    throw fieldError('accountNumber', billPayeeMessages.tooLongForAch(biller.name));
  }
  const row = await db.transaction(async (tx) => {
    await lockCustomer(tx, actor.customerId);
    if ((await countBillPayees(tx, actor.customerId)) >= maxBillPayeesPerCustomer) throw new AppError('conflict', billPayeeMessages.limitReached);
    const inserted = await insertBillPayee(tx, {
      id: randomUUID(),
      customerId: actor.customerId,
      billerId: biller.id,
      nickname: input.nickname,
      accountNumberEncrypted: encrypt(config.secrets.encryptionKey, Buffer.from(accountNumber, 'utf8')),
      accountKey: accountKeyOf(config.secrets.sessionSecret, biller.id, accountNumber),
      accountEnding: accountNumber.slice(-4),
    });
    if (!inserted) throw new AppError('conflict', billPayeeMessages.alreadySaved(biller.name));
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'bill_payee.added',
        subject: inserted.id,
        outcome: 'success',
        details: { billerId: biller.id, last4: inserted.account_ending },
      }),
    );
    return inserted;
  });
  return present(row);
}

/**
 * `DELETE /bill-payees/{id}`: a soft delete, so the payments already made keep naming it. Someone
 * else's id, an unknown one, a malformed one and one deleted already all answer the same 404.
 */
export async function deleteBillPayee(db: Database, actor: CustomerActor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await softDeleteBillPayee(tx, actor.customerId, id);
    if (!deleted) throw notFound(billPayeeMessages.notFound);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'bill_payee.deleted',
        subject: id,
        outcome: 'success',
        details: { billerId: deleted.biller_id, last4: deleted.account_ending },
      }),
    );
  });
}

/** What paying a bill needs of its payee (payments' bill planner). */
export interface PayableBillPayee {
  id: string;
  billerName: string;
  accountEnding: string;
  paymentMethod: BillerPaymentMethod;
  /** ACH billers: the biller's bank routing number and account there; null for the simulator. */
  routingNumber: string | null;
  billerAccountNumber: string | null;
}

/**
 * The customer's payee, to pay it now. Someone else's (or none) is 404 exactly like a missing
 * one; the customer's own deleted payee, or one whose biller staff made inactive, is refused with
 * a message on the payee field.
 */
export async function payableBillPayee(db: Queryable, customerId: string, id: string): Promise<PayableBillPayee> {
  const row = await findPayeeToPay(db, customerId, id);
  if (!row) throw notFound(billPayeeMessages.notFound);
  if (row.deleted) throw fieldError('billPayeeId', billPayeeMessages.deleted);
  if (!row.biller_active) throw fieldError('billPayeeId', billPayeeMessages.billerInactive(row.biller_name));
  return {
    id: row.id,
    billerName: row.biller_name,
    accountEnding: row.account_ending,
    paymentMethod: row.payment_method,
    routingNumber: row.routing_number,
    billerAccountNumber: row.biller_account_number,
  };
}
