-- The double-entry ledger (docs/decisions/010..014): accounts with four counters, append-only
-- transfers, the state of each pending transfer, the ids of transfers that failed, and the bank's
-- own operator accounts. Flag bits and codes are named in apps/api/src/ledger/types.ts and codes.ts.

CREATE TABLE ledger_accounts (
  id uuid PRIMARY KEY,
  ledger integer NOT NULL CHECK (ledger > 0),
  code integer NOT NULL CHECK (code BETWEEN 1 AND 65535),
  -- Bits: 1 linked, 2 debits_must_not_exceed_credits, 4 credits_must_not_exceed_debits.
  flags integer NOT NULL DEFAULT 0 CHECK (flags & ~7 = 0 AND flags & 6 <> 6),
  debits_pending bigint NOT NULL DEFAULT 0 CHECK (debits_pending >= 0),
  debits_posted bigint NOT NULL DEFAULT 0 CHECK (debits_posted >= 0),
  credits_pending bigint NOT NULL DEFAULT 0 CHECK (credits_pending >= 0),
  credits_posted bigint NOT NULL DEFAULT 0 CHECK (credits_posted >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The nil and the all-ones uuid are reserved, as TigerBeetle reserves 0 and 2^128 - 1.
  CHECK (id <> '00000000-0000-0000-0000-000000000000' AND id <> 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  -- The last line of defence behind the checks in TypeScript: a limit flag can never be broken.
  CONSTRAINT ledger_accounts_debits_limit CHECK (flags & 2 = 0 OR debits_pending + debits_posted <= credits_posted),
  CONSTRAINT ledger_accounts_credits_limit CHECK (flags & 4 = 0 OR credits_pending + credits_posted <= debits_posted)
)
-- Counters change on every transfer; free room on each page lets PostgreSQL write the new row
-- version beside the old one without touching the index (a HOT update): measured twice as fast.
WITH (fillfactor = 50);

-- An account, once created, stays: transfers point at it forever.
CREATE FUNCTION ledger_accounts_are_never_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_accounts rows are never deleted';
END;
$$;
CREATE TRIGGER ledger_accounts_no_delete BEFORE DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_are_never_deleted();
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_accounts_are_never_deleted();

CREATE TABLE ledger_transfers (
  id uuid PRIMARY KEY,
  -- Order of creation (with gaps after rollbacks): history pages and sweeps sort by it.
  sequence bigint GENERATED ALWAYS AS IDENTITY,
  -- No foreign keys to ledger_accounts: every transfer is inserted by the transaction that holds
  -- both accounts locked (so they exist), and accounts are never deleted (trigger above). The two
  -- foreign-key checks cost a quarter of a batch's write time (docs/decisions/013); checkLedger still reports
  -- any transfer whose account is missing.
  debit_account_id uuid NOT NULL,
  credit_account_id uuid NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  pending_id uuid REFERENCES ledger_transfers (id),
  timeout integer NOT NULL DEFAULT 0 CHECK (timeout >= 0),
  ledger integer NOT NULL CHECK (ledger > 0),
  code integer NOT NULL CHECK (code BETWEEN 1 AND 65535),
  -- Bits: 1 linked, 2 pending, 4 post_pending_transfer, 8 void_pending_transfer.
  flags integer NOT NULL CHECK (flags & ~15 = 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (id <> '00000000-0000-0000-0000-000000000000' AND id <> 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
  CHECK (debit_account_id <> credit_account_id),
  -- At most one of pending, post and void.
  CHECK (flags & 14 IN (0, 2, 4, 8)),
  -- Only a post or a void points at a pending transfer, and only a pending transfer has a timeout.
  CHECK ((pending_id IS NOT NULL) = (flags & 12 <> 0)),
  CHECK (timeout = 0 OR flags & 2 <> 0),
  CHECK (pending_id IS NULL OR pending_id <> id)
);
-- A pending transfer is resolved at most once: a second post or void cannot even be inserted.
CREATE UNIQUE INDEX ledger_transfers_pending_id ON ledger_transfers (pending_id) WHERE pending_id IS NOT NULL;
-- Account history, newest first, reads each side with an index scan and merges the two.
CREATE INDEX ledger_transfers_debit_history ON ledger_transfers (debit_account_id, sequence);
CREATE INDEX ledger_transfers_credit_history ON ledger_transfers (credit_account_id, sequence);

-- Transfers are facts: corrections are new transfers, never edits.
CREATE FUNCTION ledger_transfers_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_transfers is append-only';
END;
$$;
CREATE TRIGGER ledger_transfers_no_update BEFORE UPDATE OR DELETE ON ledger_transfers
  FOR EACH ROW EXECUTE FUNCTION ledger_transfers_are_append_only();
CREATE TRIGGER ledger_transfers_no_truncate BEFORE TRUNCATE ON ledger_transfers
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_transfers_are_append_only();

-- The one mutable fact about a pending transfer: how it ended. The pending row itself never changes.
CREATE TABLE pending_transfer_states (
  pending_id uuid PRIMARY KEY REFERENCES ledger_transfers (id),
  state text NOT NULL CHECK (state IN ('pending', 'posted', 'voided', 'expired')),
  -- NULL when the pending transfer has no timeout (held until staff post or void it).
  expires_at timestamptz,
  -- The post or void transfer; NULL while pending and when it expired.
  resolved_by_id uuid REFERENCES ledger_transfers (id),
  resolved_at timestamptz,
  CHECK ((state = 'pending') = (resolved_at IS NULL)),
  CHECK ((state IN ('posted', 'voided')) = (resolved_by_id IS NOT NULL)),
  CHECK (state <> 'expired' OR (expires_at IS NOT NULL AND resolved_at >= expires_at))
);
CREATE INDEX pending_transfer_states_expiry ON pending_transfer_states (expires_at)
  WHERE state = 'pending' AND expires_at IS NOT NULL;

-- Ids whose first attempt failed for a reason that could change (exceeds_credits, an account not yet
-- created, ...). A retry with such an id answers id_already_failed instead of succeeding later.
CREATE TABLE ledger_failed_transfers (
  id uuid PRIMARY KEY,
  result text NOT NULL CHECK (result IN ('debit_account_not_found', 'credit_account_not_found',
    'pending_transfer_not_found', 'exceeds_credits', 'exceeds_debits')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Operator accounts: the bank's own books, with fixed ids (operatorAccounts in ledger/codes.ts).
-- Ledger 840 is USD in cents. No limit flag: capital, settlement, income and expense may go either way.
INSERT INTO ledger_accounts (id, ledger, code, flags) VALUES
  ('00000000-0000-4000-8000-000000000001', 840, 100, 0), -- bank capital
  ('00000000-0000-4000-8000-000000000002', 840, 110, 0), -- external settlement, ACH
  ('00000000-0000-4000-8000-000000000003', 840, 111, 0), -- external settlement, wire
  ('00000000-0000-4000-8000-000000000004', 840, 112, 0), -- external settlement, card
  ('00000000-0000-4000-8000-000000000005', 840, 120, 0), -- fees income
  ('00000000-0000-4000-8000-000000000006', 840, 130, 0), -- marketing expense
  ('00000000-0000-4000-8000-000000000007', 840, 140, 0), -- loans receivable
  ('00000000-0000-4000-8000-000000000008', 840, 131, 0); -- interest expense
