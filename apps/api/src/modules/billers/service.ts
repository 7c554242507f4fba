import { randomUUID } from 'node:crypto';
import { billerAccountNumberRegExp, type BillCategory, type Biller, type StaffBiller, type billerRequestSchema } from '@strongroom/contracts/billers.ts';
import { isValidRoutingNumber } from '@strongroom/contracts/money-input.ts';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { findBillerRow, insertBiller, listBillerRows, lockBillerRow, updateBiller, type BillerFields, type BillerRow } from './repository.ts';

export interface BillerDependencies {
  db: Database;
  config: Pick<Config, 'mode'>;
}

/** The request as the route has parsed it (defaults applied). */
export type ParsedBillerRequest = z.output<typeof billerRequestSchema>;

function presentBiller(row: BillerRow): Biller {
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    accountNumberPattern: row.account_number_pattern,
    accountNumberExample: row.account_number_example,
  };
}

function presentStaffBiller(row: BillerRow): StaffBiller {
  return { ...presentBiller(row), paymentMethod: row.payment_method, routingNumber: row.routing_number, accountNumber: row.account_number, active: row.active };
}

/** `GET /billers?category=`: what a customer may pay, by name; a biller staff made inactive is not offered. */
export async function customerBillers(db: Database, category: BillCategory | undefined): Promise<Biller[]> {
  return (await listBillerRows(db, { category, activeOnly: true })).map(presentBiller);
}

/** One biller with how the bank pays it, active or not (bill payees check a number against it); undefined when there is none. */
export async function billerById(db: Queryable, id: string): Promise<StaffBiller | undefined> {
  const row = await findBillerRow(db, id);
  return row && presentStaffBiller(row);
}

/** `GET /staff/billers`: the whole directory, inactive billers included. */
export async function staffBillers(db: Database): Promise<StaffBiller[]> {
  return (await listBillerRows(db, { activeOnly: false })).map(presentStaffBiller);
}

/**
 * The rules beyond the schema, each answered for its field: the pattern compiles as a JavaScript
 * RegExp and the example matches it (whole value); the simulator is a sandbox's, never production's;
 * an ACH biller has a routing number with a valid ABA check digit and an account number; a
 * simulator biller has neither.
 */
export function billerFieldErrors(request: ParsedBillerRequest, mode: Config['mode']): Record<string, string> {
  const fields: Record<string, string> = {};
  const pattern = billerAccountNumberRegExp(request.accountNumberPattern);
  if (!pattern) fields.accountNumberPattern = 'the pattern is not a valid regular expression';
  else if (!pattern.test(request.accountNumberExample)) fields.accountNumberExample = 'the example does not match the pattern';
  if (request.paymentMethod === 'simulator') {
    if (mode === 'production') fields.paymentMethod = 'the rail simulator pays billers only in the sandbox: choose ACH';
    if (request.routingNumber !== null) fields.routingNumber = 'leave the routing number empty: the simulator pays this biller';
    if (request.accountNumber !== null) fields.accountNumber = 'leave the account number empty: the simulator pays this biller';
  } else {
    if (request.routingNumber === null) fields.routingNumber = "enter the biller's 9-digit routing number";
    else if (!isValidRoutingNumber(request.routingNumber)) fields.routingNumber = validationMessages.routeNumberInvalid;
    if (request.accountNumber === null) fields.accountNumber = "enter the biller's account number at its bank";
  }
  return fields;
}

function fieldsOf(request: ParsedBillerRequest, dependencies: BillerDependencies): BillerFields {
  const errors = billerFieldErrors(request, dependencies.config.mode);
  if (Object.keys(errors).length > 0) throw new AppError('validation_failed', 'Some fields are not valid', { fields: errors });
  return {
    name: request.name,
    category: request.category,
    accountNumberPattern: request.accountNumberPattern,
    accountNumberExample: request.accountNumberExample,
    paymentMethod: request.paymentMethod,
    routingNumber: request.routingNumber,
    accountNumber: request.accountNumber,
    active: request.active,
  };
}

/** A biller's facts as an audit entry records them: one line of JSON (audit details hold plain values). */
function billerForAudit(row: BillerRow | undefined): string | null {
  return row ? JSON.stringify(presentStaffBiller(row)) : null;
}

/** `POST /staff/billers`: a new biller, audited with the reason. */
export async function createBiller(dependencies: BillerDependencies, request: ParsedBillerRequest, actor: StaffActor): Promise<StaffBiller> {
  const fields = fieldsOf(request, dependencies);
  const row = await dependencies.db.transaction(async (tx) => {
    const created = await insertBiller(tx, randomUUID(), fields);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'biller.created',
        subject: created.id,
        outcome: 'success',
        details: { reason: request.reason, before: null, after: billerForAudit(created) },
      }),
    );
    return created;
  });
  return presentStaffBiller(row);
}

/** `PUT /staff/billers/{id}`: the whole biller replaced, under a lock on its row, audited before and after with the reason. */
export async function replaceBiller(
  dependencies: BillerDependencies,
  id: string,
  request: ParsedBillerRequest,
  actor: StaffActor,
): Promise<StaffBiller | undefined> {
  const fields = fieldsOf(request, dependencies);
  const row = await dependencies.db.transaction(async (tx) => {
    const before = await lockBillerRow(tx, id);
    if (!before) return undefined;
    const after = await updateBiller(tx, id, fields);
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: 'biller.updated',
        subject: id,
        outcome: 'success',
        details: { reason: request.reason, before: billerForAudit(before), after: billerForAudit(after) },
      }),
    );
    return after;
  });
  return row && presentStaffBiller(row);
}
