import type { z } from 'zod';
import type { createDepositRequestSchema, createTransferRequestSchema, createWithdrawalRequestSchema } from '@strongroom/contracts/payments.ts';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/database.ts';
import { ledgerSideOf, type LedgerSide } from '../money/service.ts';
import { planBillPayment } from './planners/bill.ts';
import { planCardPayment } from './planners/card.ts';
import { planDeposit } from './planners/deposit.ts';
import { planExternalTransfer } from './planners/external.ts';
import { planInternalTransfer } from './planners/internal.ts';
import { planOwnTransfer } from './planners/own.ts';
import { planWithdrawal } from './planners/withdrawal.ts';
import type { NewPayment } from './repository.ts';

export type TransferBody = z.output<typeof createTransferRequestSchema>;
export type DepositBody = z.output<typeof createDepositRequestSchema>;
export type WithdrawalBody = z.output<typeof createWithdrawalRequestSchema>;

export type PaymentRequest =
  { endpoint: 'transfers'; body: TransferBody } | { endpoint: 'deposits'; body: DepositBody } | { endpoint: 'withdrawals'; body: WithdrawalBody };

/**
 * Everything decided about a payment before it is claimed: who pays whom, and what it needs. The
 * ledger side (which accounts, pending or posted, code) is the kind's row in kinds.ts, resolved
 * with the ledger accounts named here.
 */
export interface PaymentPlan {
  payment: Omit<NewPayment, 'id'>;
  ledgerAccounts: {
    fromLedgerAccountId: string | null;
    toLedgerAccountId: string | null;
    /**
     * What the destination owes the bank, when it ever owed anything (accounts/owed.ts): money that
     * arrives there pays that first, in the transaction that brings it (commit-group.ts).
     */
    toOwedLedgerAccountId?: string | null;
  };
  needsStepUp: boolean;
  /** D1's rules apply to money paid to someone else. */
  reviewable: boolean;
  /** For the step-up SMS: what the code authorises. Never an account or card number. */
  purpose: string;
  recipientCustomerId: string | null;
  /**
   * A rule that must hold in the transaction that moves the money, under a lock it takes itself
   * (what a credit card owes, read under the card's row lock: issue 30 item 2); it throws the
   * refusal. A payment with one is claimed alone (commit-group.ts).
   */
  recheck?: (tx: Queryable) => Promise<void>;
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
  /** The payer's name, read beside the plan's own reads (service.ts); awaited only where a plan names the sender. */
  customerName: Promise<string>;
  /** Finds a card of this bank by its number (the cards module, given by app.ts); without it every card push goes to the card rail. */
  ownCard?: OwnCardLookup;
}

/** A card of this bank that a card push names (issue 13): paid at once into the card's account. */
export interface OwnCardTarget {
  status: 'pending_approval' | 'active' | 'frozen' | 'rejected' | 'closed';
  customerId: string;
  type: 'debit' | 'credit';
  last4: string;
  /** Debit cards: the checking account the card spends from. */
  checkingAccountId: string;
  checkingLedgerAccountId: string;
  /** What that checking account owes the bank, when it ever owed anything (accounts/owed.ts). */
  checkingOwedLedgerAccountId: string | null;
  /** Credit cards: the card's own ledger account (its line of credit) and what it owes. */
  cardLedgerAccountId: string | null;
  owedCents: bigint;
  /** Credit cards: takes the card's row lock in `tx` and answers what it owes now. */
  lockedOwedCents?: (tx: Queryable) => Promise<bigint>;
}
export type OwnCardLookup = (db: Queryable, cardNumber: string) => Promise<OwnCardTarget | undefined>;

/** Each request goes to the planner of its payment kind (planners/*.ts); each planner refuses what its kind does not allow. */
export async function planPayment(context: PlanContext, request: PaymentRequest): Promise<PaymentPlan> {
  if (request.endpoint === 'deposits') return planDeposit(context, request.body);
  if (request.endpoint === 'withdrawals') return planWithdrawal(context, request.body);
  const body = request.body;
  switch (body.kind) {
    case 'own':
      return planOwnTransfer(context, body);
    case 'internal':
      return planInternalTransfer(context, body);
    case 'external':
      return planExternalTransfer(context, body);
    case 'card':
      return planCardPayment(context, body);
    case 'bill':
      return planBillPayment(context, body);
  }
}

/** What executing a claimed payment needs: its ledger side (kinds.ts), who receives it, and the favourite to save. */
export type PaymentExecution = LedgerSide & Pick<PaymentPlan, 'recipientCustomerId' | 'favorite'>;

/** The plan's execution, once the payment has its id. */
export function executionOfPlan(plan: PaymentPlan, paymentId: string): PaymentExecution {
  return {
    ...ledgerSideOf(plan.payment.kind, { paymentId, ...plan.ledgerAccounts }),
    recipientCustomerId: plan.recipientCustomerId,
    favorite: plan.favorite,
  };
}
