import { lineCategory, lineDescription, headingParty } from '@strongroom/contracts/history-line.ts';
import { transferCodes } from '../../ledger/codes.ts';
import type { StatementTransferRow } from './repository.ts';

/** What a transfer no payment made (interest, a fee, a loan) is called on a statement. */
const descriptionOfCode = new Map<number, string>([
  [transferCodes.deposit, 'Deposit'],
  [transferCodes.withdrawal, 'Withdrawal'],
  [transferCodes.ownTransfer, 'Transfer between own accounts'],
  [transferCodes.internalTransfer, 'Transfer'],
  [transferCodes.externalTransfer, 'Transfer to another bank'],
  [transferCodes.cardPush, 'Card payment'],
  [transferCodes.billPayment, 'Bill payment'],
  [transferCodes.cardPurchase, 'Card purchase'],
  [transferCodes.loanDisbursement, 'Loan disbursement'],
  [transferCodes.loanRepayment, 'Loan repayment'],
  [transferCodes.fee, 'Fee'],
  [transferCodes.referralBonus, 'Referral bonus'],
  [transferCodes.interest, 'Interest'],
  [transferCodes.accountFunding, 'Opening deposit'],
  // Money that came in paying back a deposit another bank returned after it had been spent.
  [transferCodes.owedRepayment, 'Returned deposit'],
  // A denied dispute's provisional credit taken back beyond what the account had: that part is owed to the bank (issue 34).
  [transferCodes.disputeReversalOwed, 'Provisional credit reversed: owed to the bank'],
]);

/**
 * The same words as the history screen (the payment's reason, who it was with, the seed's
 * categories), so a line reads alike in both. `party` is null where nobody else took part.
 */
export function describeTransfer(row: StatementTransferRow): { description: string; party: string | null; category: string } {
  const side = row.is_credit ? 'in' : 'out';
  if (row.kind === null) {
    return { description: descriptionOfCode.get(row.code) ?? 'Transaction', party: null, category: side === 'in' ? 'Credit' : 'Transfer' };
  }
  const facts = {
    kind: row.kind,
    message: row.message ?? '',
    counterpartyName: row.counterparty_name ?? '',
    counterpartyBankName: row.counterparty_bank_name,
    senderName: row.details?.senderName ?? null,
    // Only a payment into a credit card of this bank names the card's ledger account (payments' card planner).
    paysCreditCard: row.kind === 'card' && row.details?.cardLedgerAccountId !== undefined,
    // A bill payment keeps the last four characters of the customer's account at the biller (payments' bill planner).
    accountEnding: row.details?.accountEnding ?? null,
  };
  return { description: lineDescription(facts, side), party: headingParty(facts, side), category: lineCategory(row.kind, side) };
}
