-- Issue 31, item 1 (docs/decisions/065-one-money-movement-primitive.md): a loan's disbursement now
-- moves in the transaction that accepts the offer, with its history line and notice (payments'
-- moveMoney), so the daily job's repair of "active loans whose disbursement's history line is
-- missing" (loans' finishDisbursements) is removed. Before 065 the ledger transfer and the line were
-- written in two transactions; a crash between them left the transfer without its line. This
-- writes, once, the line and the notice the repair would have written for each such loan. It moves
-- no money: only loans whose transfer the ledger holds are finished.
WITH unfinished AS (
  SELECT l.id, l.customer_id, l.checking_account_id, t.id AS transfer_id, t.amount
    FROM loans l
    JOIN ledger_transfers t ON t.id = l.disbursement_transfer_id
   WHERE l.status IN ('active', 'paid_off')
     AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.id = l.disbursement_transfer_id)
),
lines AS (
  INSERT INTO payments (id, customer_id, kind, status, from_account_id, to_account_id, amount_cents, counterparty_name, message)
  SELECT transfer_id, customer_id, 'loan_disbursement', 'completed', NULL, checking_account_id, amount, 'Strongroom loan', 'Loan disbursement'
    FROM unfinished
  ON CONFLICT (id) DO NOTHING
  RETURNING id
)
INSERT INTO notifications (customer_id, kind, name, text, link, payment_id)
SELECT u.customer_id, 'loan', 'Loan paid out',
       'Your loan of ' || to_char(u.amount / 100.0, 'FM$999,999,999,999,990.00') || ' was paid into your checking account.' ||
       coalesce(' Your first instalment of ' || to_char(i.payment_cents / 100.0, 'FM$999,999,999,999,990.00') || ' is due on ' ||
                to_char(i.due_date, 'YYYY-MM-DD') || '.', ''),
       '/loan/' || u.id, u.transfer_id
  FROM unfinished u
  JOIN lines ON lines.id = u.transfer_id
  LEFT JOIN LATERAL (SELECT payment_cents, due_date FROM loan_instalments WHERE loan_id = u.id ORDER BY number LIMIT 1) i ON true;
