-- Issue 35 (docs/books.md, decision 077): the bank's own books. Every ledger transfer carries the
-- business date it is booked on (posted_on); end of day closes a day, after which nothing may be
-- booked on it or before it; a closed day's general-ledger balances are kept as they were closed;
-- finance staff post adjusting entries on the open day (four eyes above a threshold); the
-- settlement bank's BAI2 statements are imported and matched to the ledger, and what does not match
-- waits in an exceptions queue.

-- Finance staff: a role of its own (packages/contracts/src/staff.ts).
ALTER TABLE staff DROP CONSTRAINT staff_role_check;
ALTER TABLE staff ADD CONSTRAINT staff_role_check CHECK (role IN ('support', 'compliance', 'operations', 'admin', 'finance'));

-- Differences the bank's reconciliation finds and books (debit-normal; the id ends in its code).
INSERT INTO ledger_accounts (id, ledger, code, flags) VALUES
  ('00000000-0000-4000-8000-000000000134', 840, 134, 0); -- reconciliation differences

-- One row: the bank's time zone (the app writes it from its configuration at start) and the last
-- business date closed. A transfer is booked on the calendar day of its created_at in that zone, or
-- on the day after the last closed one when that is later.
CREATE TABLE books_state (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  time_zone text NOT NULL,
  closed_through date,
  closed_at timestamptz
);
INSERT INTO books_state (singleton, time_zone) VALUES (true, 'America/New_York');

ALTER TABLE ledger_transfers ADD COLUMN posted_on date;
ALTER TABLE ledger_transfers DISABLE TRIGGER ledger_transfers_no_update;
UPDATE ledger_transfers SET posted_on = (created_at AT TIME ZONE 'America/New_York')::date;
ALTER TABLE ledger_transfers ENABLE TRIGGER ledger_transfers_no_update;
ALTER TABLE ledger_transfers ALTER COLUMN posted_on SET NOT NULL;
-- A close adds the day's movements to the last close's balances: it reads only the new days.
CREATE INDEX ledger_transfers_posted_on ON ledger_transfers (posted_on);

-- Dates every new transfer. A writer may ask for a date explicitly, for the rest of its transaction,
-- with `SET LOCAL strongroom.posted_on = 'YYYY-MM-DD'` (the books' adjusting entries do); a date on
-- or before the last closed day is then refused. Without it, the transfer is booked on its
-- created_at's day, moved to the open day when that day is closed already (a payment made in a
-- sandbox whose time machine ran ahead). The shared advisory lock orders each writer against a
-- close (which takes it exclusively): a transfer booked on a day commits before that day is closed,
-- or sees the close and books on the next day, so a closed day's balances never change.
CREATE FUNCTION ledger_transfers_posted_on() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
  closed date;
  asked date;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7735001);
  SELECT time_zone, closed_through INTO zone, closed FROM books_state;
  asked := nullif(current_setting('strongroom.posted_on', true), '')::date;
  IF asked IS NOT NULL THEN
    IF closed IS NOT NULL AND asked <= closed THEN
      RAISE EXCEPTION 'business day % is closed (closed through %)', asked, closed USING ERRCODE = 'SR035';
    END IF;
    NEW.posted_on := asked;
  ELSE
    NEW.posted_on := (NEW.created_at AT TIME ZONE zone)::date;
    IF closed IS NOT NULL AND NEW.posted_on <= closed THEN
      NEW.posted_on := closed + 1;
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER ledger_transfers_posted_on BEFORE INSERT ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_posted_on();

-- Each closed day's general-ledger balances, cumulative through that day, as they were closed.
CREATE TABLE books_day_balances (
  day date NOT NULL,
  gl_account text NOT NULL,
  debits_cents numeric(40, 0) NOT NULL CHECK (debits_cents >= 0),
  credits_cents numeric(40, 0) NOT NULL CHECK (credits_cents >= 0),
  PRIMARY KEY (day, gl_account)
);
-- The days closed, who closed them and with what totals.
CREATE TABLE books_closed_days (
  day date PRIMARY KEY,
  closed_at timestamptz NOT NULL DEFAULT now(),
  closed_by text NOT NULL,
  debits_cents numeric(40, 0) NOT NULL,
  credits_cents numeric(40, 0) NOT NULL,
  CHECK (debits_cents = credits_cents)
);
CREATE FUNCTION books_closed_are_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a closed day''s books never change';
END;
$$;
CREATE TRIGGER books_day_balances_final BEFORE UPDATE OR DELETE ON books_day_balances
  FOR EACH ROW EXECUTE FUNCTION books_closed_are_final();
CREATE TRIGGER books_closed_days_final BEFORE UPDATE OR DELETE ON books_closed_days
  FOR EACH ROW EXECUTE FUNCTION books_closed_are_final();

-- A finance staff member's adjusting entry between two of the bank's own accounts, booked on an
-- open day. At or above the threshold it waits for a second, different member's approval.
CREATE TABLE books_adjustments (
  id uuid PRIMARY KEY,
  -- operatorAccounts keys (ledger/codes.ts).
  debit_account text NOT NULL,
  credit_account text NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- The day asked for; null books it on the open day when it posts.
  posted_on date,
  reason text NOT NULL,
  status text NOT NULL CHECK (status IN ('awaiting_approval', 'posted', 'rejected')),
  requested_by uuid NOT NULL REFERENCES staff (id),
  decided_by uuid REFERENCES staff (id),
  decision_reason text,
  decided_at timestamptz,
  -- The ledger transfer it posted (its id is the adjustment's).
  transfer_id uuid UNIQUE,
  -- The reconciliation exception it settles, if any.
  exception_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (debit_account <> credit_account),
  CHECK ((status = 'posted') = (transfer_id IS NOT NULL))
);
CREATE INDEX books_adjustments_status ON books_adjustments (status, created_at);

-- The settlement bank's statements (BAI2), each file once.
CREATE TABLE bank_statements (
  id uuid PRIMARY KEY,
  file_sha256 text NOT NULL UNIQUE,
  file_name text NOT NULL,
  sender text NOT NULL,
  as_of_date date NOT NULL,
  line_count integer NOT NULL,
  matched_count integer NOT NULL,
  exception_count integer NOT NULL,
  imported_by text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  content text NOT NULL
);
-- Each movement a statement reports on one of the bank's settlement accounts.
CREATE TABLE bank_statement_lines (
  id uuid PRIMARY KEY,
  statement_id uuid NOT NULL REFERENCES bank_statements (id),
  -- operatorAccounts key of the settlement account (settlementAch, settlementWire, settlementCard).
  settlement_account text NOT NULL,
  day date NOT NULL,
  type_code text NOT NULL,
  -- 'credit': money into the bank's account; 'debit': money out.
  direction text NOT NULL CHECK (direction IN ('credit', 'debit')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  bank_reference text,
  customer_reference text,
  text text,
  -- The ledger transfer it matched, and how.
  matched_transfer_id uuid UNIQUE,
  match_method text CHECK (match_method IN ('reference', 'trace_number', 'amount', 'by_hand')),
  CHECK ((matched_transfer_id IS NULL) = (match_method IS NULL))
);
CREATE INDEX bank_statement_lines_statement ON bank_statement_lines (statement_id);

-- What did not match: a statement line the ledger does not expect, a settlement entry of the ledger
-- the statement does not show, or the two disagreeing on the amount. Staff resolve each with a reason.
CREATE TABLE reconciliation_exceptions (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('unmatched_statement_line', 'unmatched_ledger_entry', 'amount_mismatch')),
  statement_id uuid NOT NULL REFERENCES bank_statements (id),
  settlement_account text NOT NULL,
  day date NOT NULL,
  direction text NOT NULL CHECK (direction IN ('credit', 'debit')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  statement_line_id uuid REFERENCES bank_statement_lines (id),
  ledger_transfer_id uuid,
  status text NOT NULL CHECK (status IN ('open', 'resolved')),
  resolution text CHECK (resolution IN ('matched', 'adjusted')),
  resolution_reason text,
  resolved_by uuid REFERENCES staff (id),
  resolved_at timestamptz,
  -- A hand match names the other side; an adjustment names the adjusting entry.
  matched_exception_id uuid REFERENCES reconciliation_exceptions (id),
  adjustment_id uuid REFERENCES books_adjustments (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'resolved') = (resolved_at IS NOT NULL)),
  CHECK (statement_line_id IS NOT NULL OR ledger_transfer_id IS NOT NULL)
);
CREATE INDEX reconciliation_exceptions_open ON reconciliation_exceptions (status, day, created_at);
ALTER TABLE books_adjustments ADD CONSTRAINT books_adjustments_exception FOREIGN KEY (exception_id) REFERENCES reconciliation_exceptions (id);
