import type { z } from 'zod';
import type { createDepositRequestSchema, createTransferRequestSchema, createWithdrawalRequestSchema } from '@strongroom/contracts/payments.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { operatorAccounts, transferCodes, type TransferCode } from '../../ledger/codes.ts';
import { encrypt, keyedHash } from '../../platform/crypto.ts';
import { fundingSourceMessages } from '@strongroom/contracts/funding-sources.ts';
import { AppError } from '../../platform/errors.ts';
import { owedCents } from '../accounts/owed.ts';
import { findFundingSource, type FundingSourceRow } from '../funding-sources/repository.ts';
import { formatCents } from '../../platform/money.ts';
import { findAccountById, findAccountByNumber, hasPaidPayee, type AccountRef, type NewPayment } from './repository.ts';

export type TransferBody = z.output<typeof createTransferRequestSchema>;
export type DepositBody = z.output<typeof createDepositRequestSchema>;
export type WithdrawalBody = z.output<typeof createWithdrawalRequestSchema>;

export type PaymentRequest =
  { endpoint: 'transfers'; body: TransferBody } | { endpoint: 'deposits'; body: DepositBody } | { endpoint: 'withdrawals'; body: WithdrawalBody };

/** Everything decided about a payment before it is claimed: who pays whom, and what it needs. */
export interface PaymentPlan {
  payment: Omit<NewPayment, 'id'>;
  debitLedgerAccountId: string;
  creditLedgerAccountId: string;
  code: TransferCode;
  /** Money leaving or entering the bank waits at a rail as a pending transfer. */
  viaRail: boolean;
  needsStepUp: boolean;
  /** D1's rules apply to money paid to someone else. */
  reviewable: boolean;
  /** For the step-up SMS: what the code authorises. Never an account or card number. */
  purpose: string;
  recipientCustomerId: string | null;
  favorite: {
    bankType: 'mybank' | 'otherbank';
    bankName: string;
    accountName: string;
    accountNumber: string;
    routeNumber: string;
    nameOfCountry: string;
    accountType: 'checking' | 'savings' | null;
  } | null;
}

export interface PlanContext {
  db: Queryable;
  config: Config;
  customerId: string;
  customerName: string;
}

const noSuchAccount = 'No such account';
const noAccountAtThisBank = 'No account at this bank has this number';

/**
 * The customer's own account to pay from (or into, for a deposit). Someone else's account answers
 * exactly as a missing one does; a closed account and one not yet approved say so.
 */
async function ownAccount(context: PlanContext, accountId: string): Promise<AccountRef> {
  const account = await findAccountById(context.db, accountId);
  if (!account || account.customer_id !== context.customerId) throw new AppError('not_found', noSuchAccount);
  if (account.status === 'closed') throw new AppError('conflict', 'This account is closed. Choose another account.');
  if (account.status !== 'active' || !account.identity_approved) throw new AppError('forbidden', 'Account has not been approved');
  return account;
}

/** The account money leaves: the customer's own, and owing the bank nothing (accounts/owed.ts). */
async function sourceAccount(context: PlanContext, accountId: string): Promise<AccountRef> {
  const account = await ownAccount(context, accountId);
  const owed = await owedCents(context.db, account);
  if (owed > 0n) {
    throw new AppError(
      'account_overdrawn',
      `This account is ${formatCents(-owed)} after a deposit was returned. Pay in at least ${formatCents(owed)} before you send money from it.`,
    );
  }
  return account;
}

/** A verified account at another bank of this customer's; anything else answers as if there were none. */
async function verifiedFundingSource(context: PlanContext, fundingSourceId: string | undefined): Promise<FundingSourceRow> {
  const source = fundingSourceId === undefined ? undefined : await findFundingSource(context.db, context.customerId, fundingSourceId);
  if (!source || source.status !== 'verified') throw new AppError('no_funding_source', fundingSourceMessages.noFundingSource);
  return source;
}

function field(name: string, message: string): AppError {
  return new AppError('validation_failed', message, { fields: { [name]: message } });
}

export async function planPayment(context: PlanContext, request: PaymentRequest): Promise<PaymentPlan> {
  const { bankRoutingNumber } = businessConstants;
  if (request.endpoint === 'deposits') {
    const body = request.body;
    const account = await ownAccount(context, body.accountId);
    const source = await verifiedFundingSource(context, body.fundingSourceId);
    return {
      payment: {
        customerId: context.customerId,
        kind: 'deposit',
        fromAccountId: null,
        toAccountId: account.id,
        amountCents: BigInt(body.amountCents),
        counterpartyName: source.account_name,
        counterpartyAccountNumber: `•••• ${source.last4}`,
        counterpartyRouteNumber: source.route_number,
        fundingSourceId: source.id,
        message: body.reason,
        rail: 'ach',
      },
      debitLedgerAccountId: operatorAccounts.settlementAch,
      creditLedgerAccountId: account.ledger_account_id,
      code: transferCodes.deposit,
      viaRail: true,
      needsStepUp: false,
      reviewable: false,
      purpose: `a deposit of ${formatCents(BigInt(body.amountCents))}`,
      recipientCustomerId: null,
      favorite: null,
    };
  }

  if (request.endpoint === 'withdrawals') {
    const body = request.body;
    const from = await sourceAccount(context, body.fromAccountId);
    const amountCents = BigInt(body.amountCents);
    return {
      payment: {
        customerId: context.customerId,
        kind: 'withdrawal',
        fromAccountId: from.id,
        toAccountId: null,
        amountCents,
        counterpartyName: body.accountName,
        counterpartyAccountNumber: body.accountNumber,
        counterpartyBankName: body.nameOfBank,
        counterpartyRouteNumber: body.routeNumber,
        counterpartyCountry: body.country,
        details: { stateName: body.stateName, bankAddress: body.bankAddress },
        payeeKey: `bank:${body.routeNumber}:${body.accountNumber}`,
        message: `Withdrawal to ${body.nameOfBank}`,
        rail: 'wire',
      },
      debitLedgerAccountId: from.ledger_account_id,
      creditLedgerAccountId: operatorAccounts.settlementWire,
      code: transferCodes.withdrawal,
      viaRail: true,
      needsStepUp: true,
      reviewable: true,
      purpose: `a withdrawal of ${formatCents(amountCents)}`,
      recipientCustomerId: null,
      favorite: null,
    };
  }

  const body = request.body;
  const from = await sourceAccount(context, body.fromAccountId);
  const amountCents = BigInt(body.amountCents);
  const purpose = `a transfer of ${formatCents(amountCents)}`;
  const base = { customerId: context.customerId, fromAccountId: from.id, amountCents, message: body.message };

  switch (body.kind) {
    case 'own': {
      const to = await findAccountById(context.db, body.toAccountId);
      if (!to || to.customer_id !== context.customerId || to.status === 'closed') throw new AppError('not_found', noSuchAccount);
      if (to.id === from.id) throw field('toAccountId', 'Choose a different account to transfer to');
      return {
        payment: { ...base, kind: 'own', toAccountId: to.id, counterpartyName: to.name, counterpartyAccountNumber: to.number, counterpartyBankName: null },
        debitLedgerAccountId: from.ledger_account_id,
        creditLedgerAccountId: to.ledger_account_id,
        code: transferCodes.ownTransfer,
        viaRail: false,
        needsStepUp: false,
        reviewable: false,
        purpose,
        recipientCustomerId: null,
        favorite: null,
      };
    }
    case 'internal': {
      const to = await findAccountByNumber(context.db, body.toAccountNumber);
      if (!to || to.status === 'closed') throw field('toAccountNumber', noAccountAtThisBank);
      if (to.id === from.id) throw field('toAccountNumber', 'Choose a different account to transfer to');
      const payeeKey = `account:${to.number}`;
      return {
        payment: {
          ...base,
          kind: 'internal',
          toAccountId: to.id,
          counterpartyName: body.accountName,
          counterpartyAccountNumber: to.number,
          counterpartyRouteNumber: bankRoutingNumber,
          details: { senderName: context.customerName },
          payeeKey,
        },
        debitLedgerAccountId: from.ledger_account_id,
        creditLedgerAccountId: to.ledger_account_id,
        code: transferCodes.internalTransfer,
        viaRail: false,
        needsStepUp: to.customer_id !== context.customerId && !(await hasPaidPayee(context.db, context.customerId, payeeKey)),
        reviewable: to.customer_id !== context.customerId,
        purpose,
        recipientCustomerId: to.customer_id,
        favorite: body.addToFavorites
          ? {
              bankType: 'mybank',
              bankName: context.config.bankName,
              accountName: body.accountName,
              accountNumber: to.number,
              routeNumber: bankRoutingNumber,
              nameOfCountry: 'United States',
              accountType: to.type,
            }
          : null,
      };
    }
    case 'external': {
      if (body.routeNumber === bankRoutingNumber) throw field('routeNumber', 'This route number is this bank: choose a transfer within this bank');
      return {
        payment: {
          ...base,
          kind: 'external',
          toAccountId: null,
          counterpartyName: body.accountName,
          counterpartyAccountNumber: body.toAccountNumber,
          counterpartyBankName: body.nameOfBank,
          counterpartyRouteNumber: body.routeNumber,
          counterpartyCountry: body.nameOfCountry,
          payeeKey: `bank:${body.routeNumber}:${body.toAccountNumber}`,
          rail: 'ach',
        },
        debitLedgerAccountId: from.ledger_account_id,
        creditLedgerAccountId: operatorAccounts.settlementAch,
        code: transferCodes.externalTransfer,
        viaRail: true,
        needsStepUp: true,
        reviewable: true,
        purpose,
        recipientCustomerId: null,
        favorite: body.addToFavorites
          ? {
              bankType: 'otherbank',
              bankName: body.nameOfBank,
              accountName: body.accountName,
              accountNumber: body.toAccountNumber,
              routeNumber: body.routeNumber,
              nameOfCountry: body.nameOfCountry,
              accountType: null,
            }
          : null,
      };
    }
    case 'card': {
      const last4 = body.cardNumber.slice(-4);
      return {
        payment: {
          ...base,
          kind: 'card',
          toAccountId: null,
          counterpartyName: body.accountName,
          counterpartyAccountNumber: `•••• ${last4}`,
          counterpartyBankName: null,
          // The full number is kept only encrypted, for the rail; the payee key is a keyed hash.
          cardNumberEncrypted: encrypt(context.config.secrets.encryptionKey, Buffer.from(body.cardNumber)),
          payeeKey: `card:${keyedHash(context.config.secrets.sessionSecret, `card:${body.cardNumber}`).toString('hex')}`,
          rail: 'card',
        },
        debitLedgerAccountId: from.ledger_account_id,
        creditLedgerAccountId: operatorAccounts.settlementCard,
        code: transferCodes.cardPush,
        viaRail: true,
        needsStepUp: true,
        reviewable: true,
        purpose: `a card payment of ${formatCents(amountCents)}`,
        recipientCustomerId: null,
        favorite: null,
      };
    }
  }
}
