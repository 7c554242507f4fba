-- Issue 39: a history search finds a line by the other party's name as well as by its description
-- (docs/decisions/061-export-everything-and-search-by-party.md, after 046-history-search-index.md).
--
-- A line's heading names the other party ("To Grace Landlord", "From Ada Lovelace", "From your own
-- account", "Credit card payment": contracts' history-line.ts, headingParty) beside its description.
-- Migration 0026's text held the party only when the message was blank (then the description is the
-- party), so a search for the payee of a line with a message never found it. The text now holds,
-- for every line, the message and every party wording the line can have on either side, one per
-- line of text, folded as before; the TypeScript search still decides, matching the description or
-- the party as the customer reads them. Same name and arguments: the index expression, and every
-- query that repeats it, stay as they are.
CREATE OR REPLACE FUNCTION history_search_text(kind text, message text, counterparty_name text, counterparty_bank_name text, sender_name text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
SET search_path = pg_catalog
AS $$
  SELECT translate(
    message || CASE
      WHEN kind = 'funding' THEN E'\nopening deposit'
      WHEN kind = 'referral_bonus' THEN E'\nreferral bonus'
      ELSE E'\nfrom ' || coalesce(sender_name, counterparty_name) || E'\nto ' || counterparty_name || coalesce(', ' || counterparty_bank_name, '')
        || CASE kind WHEN 'own' THEN E'\nfrom your own account' WHEN 'card' THEN E'\ncredit card payment' ELSE '' END
    END,
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ' || U&'\0130\212A',
    'abcdefghijklmnopqrstuvwxyzik')
$$;

-- The index holds the old text of every existing payment: rebuilt from the new one, and the
-- statistics of its expression (which the search's choice of probe reads) gathered again.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'payments_search' AND relkind = 'i') THEN
    REINDEX INDEX payments_search;
  END IF;
END
$$;
ANALYZE payments;
