import type { DisputeReason } from '@strongroom/contracts/disputes.ts';
import type { DisputedPaymentRow } from './repository.ts';

/**
 * Which transactions a customer may dispute (Regulation E covers electronic transfers that took
 * money from the customer's account, or put less in than it should). Pure: the payment as the
 * repository read it, the customer asking, and the reason they chose.
 */
export type Eligibility =
  | { disputable: true; side: 'out' | 'in'; accountId: string; openedAt: Date; pointOfSale: boolean; cardId: string | null }
  | { disputable: false; notTheirs: true }
  | { disputable: false; notTheirs: false; message: string };

/** Money out of the customer's account to someone else: a card (a purchase or a push), a transfer, a bill, a withdrawal. */
const moneyOutKinds: ReadonlySet<string> = new Set(['card', 'internal', 'external', 'bill', 'withdrawal']);

/** Why each of the bank's own lines cannot be disputed, and what to do instead. */
const bankLineMessages: Readonly<Record<string, string>> = {
  interest: 'Interest the bank paid cannot be disputed. If the amount looks wrong, write to us by secure message.',
  fee: 'A fee cannot be disputed here. To ask for a fee back, write to us by secure message and we will look at a fee refund.',
  fee_refund: 'A fee refund cannot be disputed. If the amount looks wrong, write to us by secure message.',
  loan_disbursement: 'A loan payment cannot be disputed here. For a question about your loan, write to us by secure message.',
  loan_repayment: 'A loan payment cannot be disputed here. For a question about your loan, write to us by secure message.',
  funding: 'An opening deposit cannot be disputed. If the amount looks wrong, write to us by secure message.',
  referral_bonus: 'A referral bonus cannot be disputed. If something looks wrong, write to us by secure message.',
  dispute_credit: 'A line of a dispute cannot itself be disputed. Open the dispute to see where it stands.',
  dispute_reversal: 'A line of a dispute cannot itself be disputed. Open the dispute to see where it stands.',
};

const stillBeingMade = 'This payment is still being made. Once it has gone through you can report a problem with it.';
const cameBack = 'This payment did not go through or its money came back to you, so there is nothing to dispute.';
const ownTransfer = 'A move between your own accounts cannot be disputed: the money is still yours.';
const moneyIn = 'Money that came into your account cannot be disputed. If you did not expect it, write to us by secure message.';
const depositNotShort = 'A deposit can be disputed only when it came in short: choose "The amount is wrong" and tell us what you expected.';

export function eligibilityOf(payment: DisputedPaymentRow, customerId: string, reason: DisputeReason): Eligibility {
  const out = payment.from_customer_id === customerId;
  const into = payment.to_customer_id === customerId;
  if (!out && !into) return { disputable: false, notTheirs: true };
  // A payment the customer never saw (still creating, or refused by the ledger) answers as any unknown one.
  if (payment.status === 'creating' || payment.status === 'failed') return { disputable: false, notTheirs: true };
  const refuse = (message: string): Eligibility => ({ disputable: false, notTheirs: false, message });
  const bankLine = bankLineMessages[payment.kind];
  if (bankLine) return refuse(bankLine);
  if (payment.kind === 'own' || (out && into)) return refuse(ownTransfer);
  if (payment.status === 'in_review') return refuse(stillBeingMade);
  if (payment.status === 'rejected' || payment.status === 'returned') return refuse(cameBack);
  if (out && payment.from_account_id && payment.from_opened_at && moneyOutKinds.has(payment.kind)) {
    // A debit card's purchase has the card network's authorisation behind it; a card push (paying a card number) has none.
    const pointOfSale = payment.kind === 'card' && payment.card_id !== null && payment.card_type === 'debit';
    return {
      disputable: true,
      side: 'out',
      accountId: payment.from_account_id,
      openedAt: payment.from_opened_at,
      pointOfSale,
      cardId: pointOfSale ? payment.card_id : null,
    };
  }
  if (into && payment.kind === 'deposit' && payment.to_account_id && payment.to_opened_at) {
    if (reason !== 'wrong_amount') return refuse(depositNotShort);
    return { disputable: true, side: 'in', accountId: payment.to_account_id, openedAt: payment.to_opened_at, pointOfSale: false, cardId: null };
  }
  return refuse(moneyIn);
}
