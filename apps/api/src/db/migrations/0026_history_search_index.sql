-- Issue 16: a trigram index for the text search in history (docs/decisions/046-history-search-index.md).
--
-- A history line is worded in TypeScript (packages/contracts/src/history-line.ts), and the search
-- keeps matching that wording there. This function gives SQL a superset to narrow the lines down
-- first: every wording a payment's line can have, on either side, one per line of text, with the
-- ASCII letters folded to lower case (by translate, not lower(), so no locale decides it). The
-- search's pattern keeps the ASCII characters of what was typed and lets '%' stand for any other,
-- so every line whose description contains the typed text passes; the few that pass without
-- containing it (a match across two wordings) are dropped in TypeScript. The two characters whose
-- lower case in JavaScript holds an ASCII letter, U+0130 ('i' and a dot) and U+212A (Kelvin, 'k'),
-- fold to that letter here. The whitespace trimmed is JavaScript's trim(): a message of nothing
-- but such characters is blank there, and the line is worded from the counterparty instead.
CREATE FUNCTION history_search_text(kind text, message text, counterparty_name text, counterparty_bank_name text, sender_name text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
-- Not inlined (a function with SET never is), so its cost stands: the planner weighs a walk down
-- the account, computing it on every line, against a probe of the index.
SET search_path = pg_catalog
AS $$
  SELECT translate(
    message || CASE
      WHEN btrim(message, E'\t\n\u000B\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF') <> '' THEN ''
      WHEN kind = 'funding' THEN E'\nopening deposit'
      WHEN kind = 'referral_bonus' THEN E'\nreferral bonus'
      ELSE E'\nfrom ' || coalesce(sender_name, counterparty_name) || E'\nto ' || counterparty_name || coalesce(', ' || counterparty_bank_name, '')
    END,
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ' || U&'\0130\212A',
    'abcdefghijklmnopqrstuvwxyzik')
$$;

-- Creates the index when pg_trgm is installed, and says whether it exists. Not a partial index:
-- PostgreSQL keeps statistics of an index's expression (how common each text is, which tells a
-- common word from a rare one) only for an index over every row. The migration calls it
-- once; an operator who installs pg_trgm later calls it again (docs/operations.md).
CREATE FUNCTION create_history_search_index() RETURNS boolean
LANGUAGE plpgsql
AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    RETURN false;
  END IF;
  CREATE INDEX IF NOT EXISTS payments_search ON payments
    USING gin (history_search_text(kind, message, counterparty_name, counterparty_bank_name, details ->> 'senderName') gin_trgm_ops);
  RETURN true;
END
$$;

-- pg_trgm is a trusted extension (PostgreSQL 13 and later): the database's owner may create it. A
-- server without it, or a role that may not, gets a warning in PostgreSQL's log and a bank whose
-- search reads each account newest first with the same filter, without an index.
DO $$
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE WARNING 'pg_trgm cannot be created (%): history search works without its index; see docs/operations.md', SQLERRM;
  END;
  PERFORM create_history_search_index();
END
$$;
