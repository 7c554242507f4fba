import type { Queryable } from '../../db/database.ts';
import { operatorAccounts, transferCodes } from '../../ledger/codes.ts';
import type { PaymentPlan } from './plan.ts';
import { findAccountById, type PaymentRow } from './repository.ts';

export type LedgerSide = Pick<PaymentPlan, 'debitLedgerAccountId' | 'creditLedgerAccountId' | 'code' | 'viaRail' | 'recipientCustomerId' | 'favorite'>;

/** Which ledger accounts and code a payment's row stands for: the plan, rebuilt after a crash. */
export async function ledgerSideOf(db: Queryable, row: PaymentRow): Promise<LedgerSide> {
  const from = row.from_account_id ? await findAccountById(db, row.from_account_id) : undefined;
  const to = row.to_account_id ? await findAccountById(db, row.to_account_id) : undefined;
  const fromLedger = (): string => {
    if (!from) throw new Error(`payment ${row.id} has no source account`);
    return from.ledger_account_id;
  };
  const toLedger = (): string => {
    if (!to) throw new Error(`payment ${row.id} has no destination account`);
    return to.ledger_account_id;
  };
  const side = { recipientCustomerId: null, favorite: null };
  switch (row.kind) {
    case 'own':
      return { ...side, debitLedgerAccountId: fromLedger(), creditLedgerAccountId: toLedger(), code: transferCodes.ownTransfer, viaRail: false };
    case 'internal':
      return {
        ...side,
        debitLedgerAccountId: fromLedger(),
        creditLedgerAccountId: toLedger(),
        code: transferCodes.internalTransfer,
        viaRail: false,
        recipientCustomerId: to?.customer_id ?? null,
      };
    case 'external':
      return {
        ...side,
        debitLedgerAccountId: fromLedger(),
        creditLedgerAccountId: operatorAccounts.settlementAch,
        code: transferCodes.externalTransfer,
        viaRail: true,
      };
    case 'card':
      return {
        ...side,
        debitLedgerAccountId: fromLedger(),
        creditLedgerAccountId: operatorAccounts.settlementCard,
        code: transferCodes.cardPush,
        viaRail: true,
      };
    case 'withdrawal':
      return {
        ...side,
        debitLedgerAccountId: fromLedger(),
        creditLedgerAccountId: operatorAccounts.settlementWire,
        code: transferCodes.withdrawal,
        viaRail: true,
      };
    case 'deposit':
      return { ...side, debitLedgerAccountId: operatorAccounts.settlementAch, creditLedgerAccountId: toLedger(), code: transferCodes.deposit, viaRail: true };
    case 'funding':
      return {
        ...side,
        debitLedgerAccountId: operatorAccounts.bankCapital,
        creditLedgerAccountId: toLedger(),
        code: transferCodes.accountFunding,
        viaRail: false,
      };
  }
}
