import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { retryOnWriteConflict } from '../../ledger/retry.ts';
import { paymentKinds } from '../money/service.ts';
import { recordSettledPayment } from './move-money.ts';
import type { NewPayment } from './repository.ts';

/**
 * Payments the bank makes itself, outside any customer request: the opening deposit of the ops
 * CLI and the sandbox, and the sandbox's example history. Each is a ledger transfer with its
 * payment row, like every other, so history and statements show it.
 */
export interface BankPayment {
  customerId: string;
  kind: 'funding' | 'own';
  fromAccount: { id: string; ledgerAccountId: string } | null;
  toAccount: { id: string; ledgerAccountId: string; name: string; number: string };
  amountCents: bigint;
  message: string;
}

/** A payment to another bank that has already settled: the sandbox's example spending. */
export interface SettledExternalPayment {
  customerId: string;
  fromAccount: { id: string; ledgerAccountId: string };
  payee: { name: string; bankName: string; accountNumber: string; routeNumber: string };
  amountCents: bigint;
  message: string;
}

/**
 * Records the payment and posts its transfer at once, in one transaction through the money module
 * (move-money.ts `recordSettledPayment`), with the accounts and code of its kind's row in kinds.ts.
 * Posted even for a kind that waits at a rail: these payments have already settled, so there is no
 * pending step to show.
 */
async function recordPostedPayment(db: Database, payment: Omit<NewPayment, 'id'>, ledgerAccounts: { from: string | null; to: string | null }): Promise<string> {
  const id = randomUUID();
  await retryOnWriteConflict(() => db.transaction((tx) => recordSettledPayment(tx, { ...payment, id }, ledgerAccounts)));
  return id;
}

export function recordBankPayment(db: Database, payment: BankPayment): Promise<string> {
  return recordPostedPayment(
    db,
    {
      customerId: payment.customerId,
      kind: payment.kind,
      fromAccountId: payment.fromAccount?.id ?? null,
      toAccountId: payment.toAccount.id,
      amountCents: payment.amountCents,
      counterpartyName: payment.kind === 'funding' ? 'Opening deposit' : payment.toAccount.name,
      counterpartyAccountNumber: payment.kind === 'funding' ? null : payment.toAccount.number,
      message: payment.message,
    },
    { from: payment.fromAccount?.ledgerAccountId ?? null, to: payment.toAccount.ledgerAccountId },
  );
}

export function recordSettledExternalPayment(db: Database, payment: SettledExternalPayment): Promise<string> {
  return recordPostedPayment(
    db,
    {
      customerId: payment.customerId,
      kind: 'external',
      fromAccountId: payment.fromAccount.id,
      toAccountId: null,
      amountCents: payment.amountCents,
      counterpartyName: payment.payee.name,
      counterpartyAccountNumber: payment.payee.accountNumber,
      counterpartyBankName: payment.payee.bankName,
      counterpartyRouteNumber: payment.payee.routeNumber,
      counterpartyCountry: 'United States',
      payeeKey: `bank:${payment.payee.routeNumber}:${payment.payee.accountNumber}`,
      message: payment.message,
      rail: paymentKinds.external.rail,
    },
    { from: payment.fromAccount.ledgerAccountId, to: null },
  );
}
