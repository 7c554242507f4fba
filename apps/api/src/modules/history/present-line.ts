import { lineCategory, lineDescription, signedLineCents, type HistoryLineFacts } from '@strongroom/contracts/history-line.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { centsToJson } from '../../platform/money.ts';
import { visibleStatus } from '../../platform/payment-status.ts';
import type { LineRow } from './repository.ts';

/** The stored facts a line is worded from (contracts' history-line.ts words them). */
export function lineFactsOf(line: Pick<LineRow, 'kind' | 'message' | 'counterparty_name' | 'counterparty_bank_name' | 'details'>): HistoryLineFacts {
  return {
    kind: line.kind,
    message: line.message,
    counterpartyName: line.counterparty_name,
    counterpartyBankName: line.counterparty_bank_name,
    senderName: line.details.senderName ?? null,
  };
}

export function presentLine(line: LineRow): Transaction {
  return {
    id: `${line.id}:${line.side}`,
    transferId: line.id,
    accountId: line.account_id,
    kind: line.kind,
    status: visibleStatus(line.status),
    amountCents: centsToJson(signedLineCents(line.amount_cents, line.side)),
    description: lineDescription(lineFactsOf(line), line.side),
    category: lineCategory(line.kind, line.side),
    createdAt: line.created_at.toISOString(),
  };
}
