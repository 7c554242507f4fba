import { cardRules } from '@strongroom/contracts/cards.ts';
import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import { operatorAccounts, transferCodes, type TransferCode } from '../../ledger/codes.ts';

/**
 * The ledger side of every payment kind, in one table (docs/decisions/023-one-payment-path.md):
 * which account is debited and which credited, whether the transfer waits at a rail as a pending
 * transfer or is posted at once, how long a pending one may wait, the rail and the transfer code.
 * The planners (payments/planners/*.ts), the bank's own payments (payments/funding.ts) and every movement of a loan
 * or a referral bonus (move-money.ts, decision 065) all read it here and nowhere else. A new kind is a new row and a planner.
 * Movements recorded in a feature's own table (a card's, a link's micro-deposits, what an account
 * owes) have their table below, `bookedMovementKinds`: between the two, every transfer the bank
 * writes has its sides here.
 */

/** The rails a payment may wait at before it settles. */
export type Rail = 'ach' | 'wire' | 'card';

/** One side of a transfer: the payment's source account, its destination account, or one of the bank's own accounts. */
export type LedgerParty = 'from_account' | 'to_account' | keyof typeof operatorAccounts;

export interface PaymentKindLedger {
  debit: LedgerParty;
  credit: LedgerParty;
  /**
   * 'pending' reserves the money until the rail settles (posted) or returns it (voided); 'posted'
   * moves it at once. A payment held for review is pending whatever its kind, until staff decide.
   */
  transfer: 'pending' | 'posted';
  /** How long the ledger keeps a pending transfer before voiding it; 0 waits for the rail or staff, however long. */
  timeoutSeconds: number;
  /** The rail that settles it; null for money that never leaves the bank. */
  rail: Rail | null;
  code: TransferCode;
}

export const paymentKinds: Readonly<Record<PaymentKind, PaymentKindLedger>> = {
  own: { debit: 'from_account', credit: 'to_account', transfer: 'posted', timeoutSeconds: 0, rail: null, code: transferCodes.ownTransfer },
  internal: { debit: 'from_account', credit: 'to_account', transfer: 'posted', timeoutSeconds: 0, rail: null, code: transferCodes.internalTransfer },
  external: { debit: 'from_account', credit: 'settlementAch', transfer: 'pending', timeoutSeconds: 0, rail: 'ach', code: transferCodes.externalTransfer },
  card: { debit: 'from_account', credit: 'settlementCard', transfer: 'pending', timeoutSeconds: 0, rail: 'card', code: transferCodes.cardPush },
  // A bill to a biller of Bill Pay's directory (issue 33): an ACH credit to the biller, or in the sandbox the rail simulator's.
  bill: { debit: 'from_account', credit: 'settlementAch', transfer: 'pending', timeoutSeconds: 0, rail: 'ach', code: transferCodes.billPayment },
  withdrawal: { debit: 'from_account', credit: 'settlementWire', transfer: 'pending', timeoutSeconds: 0, rail: 'wire', code: transferCodes.withdrawal },
  deposit: { debit: 'settlementAch', credit: 'to_account', transfer: 'pending', timeoutSeconds: 0, rail: 'ach', code: transferCodes.deposit },
  funding: { debit: 'bankCapital', credit: 'to_account', transfer: 'posted', timeoutSeconds: 0, rail: null, code: transferCodes.accountFunding },
  // Moved by the loans module through move-money.ts (a repayment's interest is booked by a linked leg beside it: linkedLegKinds).
  loan_disbursement: {
    debit: 'loansReceivable',
    credit: 'to_account',
    transfer: 'posted',
    timeoutSeconds: 0,
    rail: null,
    code: transferCodes.loanDisbursement,
  },
  loan_repayment: { debit: 'from_account', credit: 'loansReceivable', transfer: 'posted', timeoutSeconds: 0, rail: null, code: transferCodes.loanRepayment },
  // Moved by the referrals module through move-money.ts, with a transfer id derived from the referred customer.
  referral_bonus: {
    debit: 'marketingExpense',
    credit: 'to_account',
    transfer: 'posted',
    timeoutSeconds: 0,
    rail: null,
    code: transferCodes.referralBonus,
  },
  // Moved by the end-of-day job (modules/end-of-day, decision 072): a cycle's interest, the monthly fee, and a fee staff give back.
  interest: { debit: 'interestExpense', credit: 'to_account', transfer: 'posted', timeoutSeconds: 0, rail: null, code: transferCodes.interest },
  fee: { debit: 'from_account', credit: 'feesIncome', transfer: 'posted', timeoutSeconds: 0, rail: null, code: transferCodes.fee },
  fee_refund: { debit: 'feesIncome', credit: 'to_account', transfer: 'posted', timeoutSeconds: 0, rail: null, code: transferCodes.fee },
  // Moved by the disputes module (modules/disputes/money.ts, issue 34): a dispute's credit lent from suspense, and a denied one's taken back.
  dispute_credit: {
    debit: 'disputesSuspense',
    credit: 'to_account',
    transfer: 'posted',
    timeoutSeconds: 0,
    rail: null,
    code: transferCodes.disputeCredit,
  },
  dispute_reversal: {
    debit: 'from_account',
    credit: 'disputesSuspense',
    transfer: 'posted',
    timeoutSeconds: 0,
    rail: null,
    code: transferCodes.disputeReversal,
  },
};

/** One side of a booked movement: the ledger account the caller names as its source or destination, or one of the bank's own. */
export type BookedParty = 'from' | 'to' | keyof typeof operatorAccounts;

export interface BookedMovementLedger {
  debit: BookedParty;
  credit: BookedParty;
  /** 'pending' reserves the money until it is posted or voided (move-money.ts resolveHeld); 'posted' moves it at once. */
  transfer: 'pending' | 'posted';
  /** How long the ledger keeps a pending transfer before voiding it. */
  timeoutSeconds: number;
  code: TransferCode;
  /** The credit side is a customer's deposit account: money arriving there pays what the account owes first (accounts/owed.ts). */
  paysWhatIsOwed: boolean;
}

/**
 * The ledger side of every movement of money that is recorded in its own feature's table rather
 * than as a payment row (a card's authorisations and payments, a card's line of credit, the
 * micro-deposits of a link, a returned deposit taken back, what an account owes repaid). The money
 * module (move-money.ts `bookMovements`) posts each one from this table and nowhere else, in the
 * transaction that records it (docs/decisions/069-every-movement-through-the-money-module.md).
 */
export const bookedMovementKinds = {
  /** A card purchase authorised: held from the card's spending account (a debit card's checking, a credit card's line) until cleared, reversed or expired. */
  card_authorization: {
    debit: 'from',
    credit: 'settlementCard',
    transfer: 'pending',
    timeoutSeconds: cardRules.authorizationHoldDays * 24 * 60 * 60,
    code: transferCodes.cardPurchase,
    paysWhatIsOwed: false,
  },
  /** A credit card's line of credit, granted at approval. */
  card_credit_line: {
    debit: 'loansReceivable',
    credit: 'to',
    transfer: 'posted',
    timeoutSeconds: 0,
    code: transferCodes.cardCreditLine,
    paysWhatIsOwed: false,
  },
  /** The line given back when the card closes. */
  card_credit_line_returned: {
    debit: 'from',
    credit: 'loansReceivable',
    transfer: 'posted',
    timeoutSeconds: 0,
    code: transferCodes.cardCreditLine,
    paysWhatIsOwed: false,
  },
  /** A closed card's credit balance, back to its checking account. */
  card_credit_refund: { debit: 'from', credit: 'to', transfer: 'posted', timeoutSeconds: 0, code: transferCodes.cardCreditRefund, paysWhatIsOwed: true },
  /** Money paid towards what a credit card owes (checking -> the card's account). */
  card_repayment: { debit: 'from', credit: 'to', transfer: 'posted', timeoutSeconds: 0, code: transferCodes.cardRepayment, paysWhatIsOwed: false },
  /** A micro-deposit to an account at another bank that a customer links. */
  micro_deposit: {
    debit: 'accountVerificationExpense',
    credit: 'settlementAch',
    transfer: 'posted',
    timeoutSeconds: 0,
    code: transferCodes.microDeposit,
    paysWhatIsOwed: false,
  },
  /** A micro-deposit the other bank returned. */
  micro_deposit_returned: {
    debit: 'settlementAch',
    credit: 'accountVerificationExpense',
    transfer: 'posted',
    timeoutSeconds: 0,
    code: transferCodes.microDeposit,
    paysWhatIsOwed: false,
  },
  /** A deposit another bank returned after it cleared, taken back from what the account owes. */
  deposit_returned: { debit: 'from', credit: 'settlementAch', transfer: 'posted', timeoutSeconds: 0, code: transferCodes.depositReturn, paysWhatIsOwed: false },
  /** Money that came in pays what the account owes (the deposit account -> what it owes). */
  owed_repayment: { debit: 'from', credit: 'to', transfer: 'posted', timeoutSeconds: 0, code: transferCodes.owedRepayment, paysWhatIsOwed: false },
  /** A card charge resolved for the customer: the network pays it back, clearing the provisional credit from suspense (issue 34). */
  dispute_chargeback: {
    debit: 'settlementCard',
    credit: 'disputesSuspense',
    transfer: 'posted',
    timeoutSeconds: 0,
    code: transferCodes.disputeChargeback,
    paysWhatIsOwed: false,
  },
  /** A dispute resolved for the customer with nobody to charge back: the bank bears the credit. */
  dispute_loss: {
    debit: 'disputeLosses',
    credit: 'disputesSuspense',
    transfer: 'posted',
    timeoutSeconds: 0,
    code: transferCodes.disputeLoss,
    paysWhatIsOwed: false,
  },
  /**
   * What a denied dispute's reversal takes beyond what the account has: owed to the bank (what it
   * owes -> the deposit account), so the reversal's own line takes the whole credit, as a late
   * returned deposit leaves the account below zero (accounts/owed.ts). Money that comes in later pays it.
   */
  dispute_reversal_owed: {
    debit: 'from',
    credit: 'to',
    transfer: 'posted',
    timeoutSeconds: 0,
    code: transferCodes.disputeReversalOwed,
    paysWhatIsOwed: false,
  },
  /** A finance member's adjusting entry between two of the bank's own accounts, named by the entry (issue 35; books/adjustments.ts). */
  adjustment: { debit: 'from', credit: 'to', transfer: 'posted', timeoutSeconds: 0, code: transferCodes.adjustment, paysWhatIsOwed: false },
} as const satisfies Record<string, BookedMovementLedger>;

export type BookedMovementKind = keyof typeof bookedMovementKinds;

/**
 * Transfers that are not payments of their own but move beside one, linked to it (both or
 * neither): a loan repayment's interest, booked from loans receivable to the bank's interest
 * income, so loans receivable falls by the principal only (move-money.ts).
 */
export const linkedLegKinds = {
  loan_interest: { debit: 'loansReceivable', credit: 'interestIncome', code: transferCodes.interest },
} as const satisfies Record<string, { debit: keyof typeof operatorAccounts; credit: keyof typeof operatorAccounts; code: TransferCode }>;

export type LinkedLegKind = keyof typeof linkedLegKinds;

/** The ledger transfer of one payment, its parties resolved to ledger account ids. */
export interface LedgerSide {
  debitLedgerAccountId: string;
  creditLedgerAccountId: string;
  code: TransferCode;
  /** The kind's transfer is pending at a rail (before any review hold is added). */
  viaRail: boolean;
  timeoutSeconds: number;
}

/** The ledger accounts of the customer accounts a payment names; a kind that needs one the payment lacks is a defect. */
export interface PaymentLedgerAccounts {
  paymentId: string;
  fromLedgerAccountId: string | null;
  toLedgerAccountId: string | null;
}

function resolve(party: LedgerParty, accounts: PaymentLedgerAccounts): string {
  if (party === 'from_account') {
    if (!accounts.fromLedgerAccountId) throw new Error(`payment ${accounts.paymentId} has no source account`);
    return accounts.fromLedgerAccountId;
  }
  if (party === 'to_account') {
    if (!accounts.toLedgerAccountId) throw new Error(`payment ${accounts.paymentId} has no destination account`);
    return accounts.toLedgerAccountId;
  }
  return operatorAccounts[party];
}

export function ledgerSideOf(kind: PaymentKind, accounts: PaymentLedgerAccounts): LedgerSide {
  // A card push to a card of this bank (issue 13) never reaches the rail: it is posted at once into the card's account.
  if (kind === 'card' && accounts.toLedgerAccountId) {
    return {
      debitLedgerAccountId: resolve('from_account', accounts),
      creditLedgerAccountId: accounts.toLedgerAccountId,
      code: paymentKinds.card.code,
      viaRail: false,
      timeoutSeconds: 0,
    };
  }
  const row = paymentKinds[kind];
  return {
    debitLedgerAccountId: resolve(row.debit, accounts),
    creditLedgerAccountId: resolve(row.credit, accounts),
    code: row.code,
    viaRail: row.transfer === 'pending',
    timeoutSeconds: row.timeoutSeconds,
  };
}
