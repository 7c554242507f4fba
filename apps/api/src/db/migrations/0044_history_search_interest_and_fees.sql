-- Issue 32: interest, a monthly fee and a fee given back are lines of their own (contracts'
-- history-line.ts: "Interest paid", "Monthly maintenance fee", "Fee refunded" when the payment
-- has no message; no other party, as for an opening deposit). A history search finds them by
-- those words, as migration 0037 finds every other line: same function, same index, rebuilt.
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
