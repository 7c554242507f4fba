-- Deposits from a verified source (issue 19): the accounts customers hold at other banks, the
-- micro-deposits that prove them, the ACH files the bank sends its rail, and what other banks
-- return. See docs/decisions/021-deposits-from-verified-sources.md.

-- The bank's expense for micro-deposits: real money sent to prove an account.
INSERT INTO ledger_accounts (id, ledger, code, flags) VALUES
  ('00000000-0000-4000-8000-000000000009', 840, 132, 0); -- account verification expense

CREATE TABLE funding_sources (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  account_name text NOT NULL,
  -- AES-256-GCM; the full number goes only into the ACH file. Screens show the last four digits.
  account_number_encrypted bytea NOT NULL,
  -- A keyed hash of route and account number: the same account linked twice is found without
  -- decrypting every row.
  account_key bytea NOT NULL CHECK (length(account_key) = 32),
  last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  route_number text NOT NULL CHECK (route_number ~ '^[0-9]{9}$'),
  account_type text NOT NULL CHECK (account_type IN ('checking', 'savings')),
  status text NOT NULL CHECK (status IN ('pending_verification', 'verified', 'failed', 'removed')),
  verify_attempts integer NOT NULL DEFAULT 0 CHECK (verify_attempts BETWEEN 0 AND 3),
  -- The Idempotency-Key of the request that linked it: a repeated request answers this row.
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  verified_at timestamptz,
  removed_at timestamptz,
  CHECK (status <> 'verified' OR verified_at IS NOT NULL),
  CHECK (status <> 'removed' OR removed_at IS NOT NULL),
  UNIQUE (customer_id, idempotency_key)
);
CREATE INDEX funding_sources_customer ON funding_sources (customer_id, created_at DESC);
-- One live link per account and customer.
CREATE UNIQUE INDEX funding_sources_live_account ON funding_sources (customer_id, account_key)
  WHERE status IN ('pending_verification', 'verified');

CREATE TABLE micro_deposits (
  -- The id of the ledger transfer that paid it (verification expense -> ACH settlement).
  id uuid PRIMARY KEY,
  funding_source_id uuid NOT NULL REFERENCES funding_sources (id),
  amount_cents bigint NOT NULL CHECK (amount_cents BETWEEN 1 AND 99),
  status text NOT NULL DEFAULT 'sent' CHECK (status IN ('sent', 'returned')),
  return_code text CHECK (return_code ~ '^R[0-9]{2}$'),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX micro_deposits_source ON micro_deposits (funding_source_id);

-- A deposit names the source it pulls from. Deposits made before this migration have none, so the
-- rule holds for new rows only (NOT VALID skips the check of existing ones).
ALTER TABLE payments ADD COLUMN funding_source_id uuid REFERENCES funding_sources (id);
ALTER TABLE payments ADD CONSTRAINT payments_deposit_source CHECK (kind <> 'deposit' OR funding_source_id IS NOT NULL) NOT VALID;
-- The NACHA return reason code of a payment another bank returned (R01 insufficient funds, ...).
ALTER TABLE payments ADD COLUMN return_code text CHECK (return_code ~ '^R[0-9]{2}$');
-- A deposit returned after it cleared owes the ledger a reversing transfer until this is false:
-- the payments sweep writes any that a crash left undone.
ALTER TABLE payments ADD COLUMN reversal_due boolean NOT NULL DEFAULT false;
CREATE INDEX payments_reversal_due ON payments (id) WHERE reversal_due;
CREATE INDEX payments_funding_source ON payments (funding_source_id) WHERE funding_source_id IS NOT NULL;
-- The daily deposit limit sums one customer's deposits of the day.
CREATE INDEX payments_customer_kind_created ON payments (customer_id, kind, created_at);
-- The ACH file and the staff view list what waits at the ACH rail.
CREATE INDEX payments_pending_rail ON payments (rail, created_at) WHERE status = 'pending';

-- A step-up that authorises linking an account moves no money of the customer's.
ALTER TABLE step_up_challenges DROP CONSTRAINT step_up_challenges_amount_cents_check;
ALTER TABLE step_up_challenges ADD CONSTRAINT step_up_challenges_amount_cents_check CHECK (amount_cents >= 0);

-- What a late return took below zero: a debit-normal ledger account per customer account that
-- owes the bank (created when first needed). Balance shown = the account's balance - what it owes.
ALTER TABLE customer_accounts ADD COLUMN owed_ledger_account_id uuid UNIQUE;

-- The NACHA files the bank has written for its ACH rail, and each entry in them.
CREATE TABLE ach_files (
  id uuid PRIMARY KEY,
  -- A-Z then 0-9: tells apart files written on the same day.
  file_id_modifier text NOT NULL CHECK (file_id_modifier ~ '^[A-Z0-9]$'),
  effective_date date NOT NULL,
  entry_count integer NOT NULL CHECK (entry_count > 0),
  debit_total_cents bigint NOT NULL CHECK (debit_total_cents >= 0),
  credit_total_cents bigint NOT NULL CHECK (credit_total_cents >= 0),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Trace numbers: the bank's routing number (8 digits) and this sequence (7 digits).
CREATE SEQUENCE ach_trace_sequence MINVALUE 1 MAXVALUE 9999999 NO CYCLE;

CREATE TABLE ach_entries (
  trace_number text PRIMARY KEY CHECK (trace_number ~ '^[0-9]{15}$'),
  file_id uuid NOT NULL REFERENCES ach_files (id),
  payment_id uuid UNIQUE REFERENCES payments (id),
  micro_deposit_id uuid UNIQUE REFERENCES micro_deposits (id),
  transaction_code smallint NOT NULL CHECK (transaction_code IN (22, 27, 32, 37)),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  CHECK ((payment_id IS NULL) <> (micro_deposit_id IS NULL))
);
CREATE INDEX ach_entries_file ON ach_entries (file_id);
