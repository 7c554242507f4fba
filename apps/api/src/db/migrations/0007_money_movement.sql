-- Money movement: the business side of every customer payment (the ledger knows amounts, accounts
-- and codes only), the idempotency keys and step-up challenges that guard them, saved payees, and
-- the customer's notifications.

CREATE TABLE payments (
  -- The id of the ledger transfer that moves (or reserves) the money: one id, two tables.
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  kind text NOT NULL CHECK (kind IN ('own', 'internal', 'external', 'card', 'deposit', 'withdrawal', 'funding')),
  -- 'creating' only between the row's insert and the ledger's answer; a sweep finishes any left so.
  -- 'failed' is a payment the ledger refused (insufficient funds): it never reaches a customer's history.
  status text NOT NULL CHECK (status IN ('creating', 'completed', 'pending', 'in_review', 'rejected', 'returned', 'failed')),
  from_account_id uuid REFERENCES customer_accounts (id),
  to_account_id uuid REFERENCES customer_accounts (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  counterparty_name text NOT NULL DEFAULT '',
  counterparty_account_number text,
  counterparty_bank_name text,
  counterparty_route_number text,
  counterparty_country text,
  -- Extra fields of a withdrawal (state, bank address) and the like; never a card number.
  details jsonb NOT NULL DEFAULT '{}',
  -- A card number to push to, AES-256-GCM encrypted; only the last four digits are ever shown.
  card_number_encrypted bytea,
  -- Who was paid, to tell a new payee from a known one: 'account:NUMBER', 'bank:ROUTE:NUMBER' or
  -- 'card:' + a keyed hash of the card number.
  payee_key text,
  message text NOT NULL DEFAULT '',
  rail text CHECK (rail IN ('ach', 'wire', 'card')),
  settle_at timestamptz,
  status_reason text,
  failure_code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (from_account_id IS NOT NULL OR to_account_id IS NOT NULL),
  -- Only a payment at a rail settles; a held one has its rail but no settlement time until released.
  CHECK (settle_at IS NULL OR rail IS NOT NULL)
);
CREATE INDEX payments_from_account ON payments (from_account_id, created_at DESC, id DESC) WHERE status <> 'failed';
CREATE INDEX payments_to_account ON payments (to_account_id, created_at DESC, id DESC) WHERE status <> 'failed';
CREATE INDEX payments_customer_payee ON payments (customer_id, payee_key, created_at);
CREATE INDEX payments_due ON payments (settle_at) WHERE status = 'pending';
CREATE INDEX payments_unfinished ON payments (created_at) WHERE status = 'creating';

CREATE TABLE idempotency_keys (
  customer_id uuid NOT NULL REFERENCES customers (id),
  key text NOT NULL CHECK (length(key) BETWEEN 8 AND 100),
  -- sha256 of the endpoint and the validated body: the same key with another body is refused.
  request_hash bytea NOT NULL CHECK (length(request_hash) = 32),
  payment_id uuid NOT NULL,
  response_status integer,
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, key)
);

CREATE TABLE step_up_challenges (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  -- The one request it may authorise: its idempotency key and its body's hash (which holds the amount).
  idempotency_key text NOT NULL,
  request_hash bytea NOT NULL CHECK (length(request_hash) = 32),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  phone_e164 text NOT NULL,
  code_hash bytea NOT NULL CHECK (length(code_hash) = 32),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
  sends integer NOT NULL DEFAULT 1 CHECK (sends BETWEEN 1 AND 5),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_sent_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  verified_at timestamptz,
  used_at timestamptz,
  CHECK (used_at IS NULL OR verified_at IS NOT NULL)
);
CREATE INDEX step_up_challenges_customer ON step_up_challenges (customer_id, created_at DESC);

CREATE TABLE beneficiaries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  bank_type text NOT NULL CHECK (bank_type IN ('mybank', 'otherbank')),
  bank_name text NOT NULL,
  account_name text NOT NULL,
  account_number text NOT NULL,
  route_number text NOT NULL,
  name_of_country text NOT NULL,
  account_type text CHECK (account_type IN ('checking', 'savings')),
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
-- One saved entry per account and bank; deleting and adding again makes a new row.
CREATE UNIQUE INDEX beneficiaries_unique ON beneficiaries (customer_id, bank_type, route_number, account_number) WHERE deleted_at IS NULL;

CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  kind text NOT NULL,
  name text NOT NULL,
  text text NOT NULL,
  link text,
  payment_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  deleted_at timestamptz
);
CREATE INDEX notifications_customer ON notifications (customer_id, created_at DESC) WHERE deleted_at IS NULL;

-- The payments sweep looks for decisions whose ledger step is still to do: only open reservations.
CREATE INDEX pending_transfer_states_open ON pending_transfer_states (pending_id) WHERE state = 'pending';
