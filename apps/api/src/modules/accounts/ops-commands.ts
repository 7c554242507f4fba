import { formatMoney } from '@strongroom/contracts/money.ts';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';

const listLimit = 500;

/** `npm run ops -- negative-balances`: accounts a returned deposit took below zero, most owed first. */
export const negativeBalancesCommand: OpsCommand = {
  name: 'negative-balances',
  summary: 'List accounts below zero after a returned deposit, most owed first',
  usage: 'negative-balances',
  async run({ database }, args) {
    if (args.length > 0) throw new OpsUsageError('negative-balances takes no arguments');
    const db = await database();
    const rows = await db.query<{ account_id: string; number: string; type: string; customer: string; owed: bigint; balance: bigint }>(
      `SELECT a.id AS account_id, a.number, a.type, c.email AS customer,
              (o.debits_posted - o.credits_posted)::bigint AS owed,
              (l.credits_posted - l.debits_posted)::bigint AS balance
       FROM customer_accounts a
       JOIN customers c ON c.id = a.customer_id
       JOIN ledger_accounts o ON o.id = a.owed_ledger_account_id
       JOIN ledger_accounts l ON l.id = a.ledger_account_id
       WHERE o.debits_posted - o.credits_posted > l.credits_posted - l.debits_posted
       ORDER BY (o.debits_posted - o.credits_posted) - (l.credits_posted - l.debits_posted) DESC LIMIT $1`,
      [listLimit],
    );
    return ok(
      rows.map((row) => ({
        accountId: row.account_id,
        number: row.number,
        type: row.type,
        customer: row.customer,
        balance: formatMoney(row.balance - row.owed),
        owed: formatMoney(row.owed),
      })),
    );
  },
};
