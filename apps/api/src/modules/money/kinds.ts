import type { PaymentKind } from '@strongroom/contracts/payments.ts';
import { operatorAccounts, transferCodes, type TransferCode } from '../../ledger/codes.ts';
import type { Rail } from './repository.ts';

/**
 * The ledger side of every payment kind, in one table (docs/decisions/023-one-payment-path.md):
 * which account is debited and which credited, whether the transfer waits at a rail as a pending
 * transfer or is posted at once, how long a pending one may wait, the rail and the transfer code.
 * The planners (planners/*.ts), the bank's own payments (funding.ts) and every movement of a loan
 * or a referral bonus (move-money.ts, decision 065) all read it here and nowhere else. A new kind is a new row and a planner.
 */

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
};

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
