import type { settlementAccountKeys } from '@strongroom/contracts/books.ts';
import { operatorAccounts } from '../../ledger/codes.ts';

/**
 * The bank's own accounts at its settlement bank (docs/books.md, "Reconciliation"): the number the
 * settlement bank's BAI2 statement names each by, and the ledger's settlement account it mirrors.
 * An account number a statement names that is not here is refused: the statement is not of this
 * bank's settlement accounts.
 */
export type SettlementAccountKey = (typeof settlementAccountKeys)[number];

export interface SettlementBankAccount {
  key: SettlementAccountKey;
  /** The account number on the settlement bank's statement. */
  accountNumber: string;
  ledgerAccountId: string;
  name: string;
  /** The detail type codes the sandbox's settlement bank reports this account's money in and out with. */
  typeCodes: { credit: string; debit: string };
}

export const settlementBankAccounts: readonly SettlementBankAccount[] = [
  // 165 preauthorized ACH credit, 455 preauthorized ACH debit.
  {
    key: 'settlementAch',
    accountNumber: '0001100001',
    ledgerAccountId: operatorAccounts.settlementAch,
    name: 'ACH settlement account (Federal Reserve)',
    typeCodes: { credit: '165', debit: '455' },
  },
  // 195 incoming money transfer, 495 outgoing money transfer.
  {
    key: 'settlementWire',
    accountNumber: '0001110001',
    ledgerAccountId: operatorAccounts.settlementWire,
    name: 'Wire settlement account (correspondent bank)',
    typeCodes: { credit: '195', debit: '495' },
  },
  // 108 credit (any), 409 debit (any): the card network's net settlement.
  {
    key: 'settlementCard',
    accountNumber: '0001120001',
    ledgerAccountId: operatorAccounts.settlementCard,
    name: 'Card network settlement account',
    typeCodes: { credit: '108', debit: '409' },
  },
];

export function settlementAccountByNumber(accountNumber: string): SettlementBankAccount | undefined {
  return settlementBankAccounts.find((account) => account.accountNumber === accountNumber);
}

export function settlementAccountByKey(key: string): SettlementBankAccount | undefined {
  return settlementBankAccounts.find((account) => account.key === key);
}

export function settlementAccountByLedgerId(ledgerAccountId: string): SettlementBankAccount | undefined {
  return settlementBankAccounts.find((account) => account.ledgerAccountId === ledgerAccountId);
}
