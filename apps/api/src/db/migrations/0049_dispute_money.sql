-- Issue 34 (docs/disputes.md): the money of a dispute. A provisional credit is lent from the
-- disputes suspense account into the customer's account; when the case ends, suspense is cleared by
-- the network paying a card charge back (card settlement), by the bank bearing it (dispute losses),
-- or by the credit taken back from the customer after a denial. Suspense and losses are
-- debit-normal (ledger/codes.ts), each id ending in its account code as migration 0017's does.
INSERT INTO ledger_accounts (id, ledger, code, flags) VALUES
  ('00000000-0000-4000-8000-000000000133', 840, 133, 0), -- dispute losses
  ('00000000-0000-4000-8000-000000000150', 840, 150, 0); -- disputes suspense

-- A dispute's credit (dispute_credit) and its reversal (dispute_reversal) are payments of their own
-- kinds (modules/money/kinds.ts), lines of the customer's history and statements.
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check
  CHECK (kind IN ('own', 'internal', 'external', 'card', 'bill', 'deposit', 'withdrawal', 'funding', 'loan_disbursement', 'loan_repayment',
                  'referral_bonus', 'interest', 'fee', 'fee_refund', 'dispute_credit', 'dispute_reversal'));

-- A dispute's lines read "Provisional credit: dispute of <transaction>" and "Provisional credit
-- reversed: dispute of <transaction>" (their message); without one, "Provisional credit" and
-- "Provisional credit reversed" (contracts' history-line.ts), with no other party, as the bank's
-- own lines. Otherwise as migration 0046.
CREATE OR REPLACE FUNCTION history_search_text(kind text, message text, counterparty_name text, counterparty_bank_name text, sender_name text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
SET search_path = pg_catalog
AS $$
  SELECT translate(
    message || CASE
      WHEN kind = 'funding' THEN E'\nopening deposit'
      WHEN kind = 'referral_bonus' THEN E'\nreferral bonus'
      WHEN kind = 'interest' THEN E'\ninterest paid'
      WHEN kind = 'fee' THEN E'\nmonthly maintenance fee'
      WHEN kind = 'fee_refund' THEN E'\nfee refunded'
      WHEN kind = 'dispute_credit' THEN E'\nprovisional credit'
      WHEN kind = 'dispute_reversal' THEN E'\nprovisional credit reversed'
      WHEN kind = 'bill' THEN E'\nbill payment to ' || counterparty_name || ', account ending '
      ELSE E'\nfrom ' || coalesce(sender_name, counterparty_name) || E'\nto ' || counterparty_name || coalesce(', ' || counterparty_bank_name, '')
        || CASE kind WHEN 'own' THEN E'\nfrom your own account' WHEN 'card' THEN E'\ncredit card payment' ELSE '' END
    END,
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ' || U&'\0130\212A',
    'abcdefghijklmnopqrstuvwxyzik')
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'payments_search' AND relkind = 'i') THEN
    REINDEX INDEX payments_search;
  END IF;
END
$$;
ANALYZE payments;
