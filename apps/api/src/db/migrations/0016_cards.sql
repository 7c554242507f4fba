-- Cards (issue 13, docs/product.md D9 and section 6 "Cards"). A card is requested, decided by staff (or
-- the sandbox's automatic approval) and only then numbered: the number (PAN) is stored AES-256-GCM
-- encrypted, with its last four digits apart for display and a keyed hash (HMAC-SHA-256) to find a
-- card by its number without decrypting any. The CVV is never stored: it is derived on reveal.

CREATE TABLE cards (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  type text NOT NULL CHECK (type IN ('debit', 'credit')),
  network text NOT NULL CHECK (network IN ('visa', 'mastercard')),
  name_on_card text NOT NULL CHECK (length(name_on_card) BETWEEN 1 AND 26),
  status text NOT NULL CHECK (status IN ('pending_approval', 'active', 'frozen', 'rejected', 'closed')),
  -- The checking account a debit card spends from and a credit card is paid from.
  linked_account_id uuid NOT NULL REFERENCES customer_accounts (id),
  -- Set together when the card is approved.
  pan_encrypted bytea,
  pan_lookup bytea UNIQUE CHECK (pan_lookup IS NULL OR length(pan_lookup) = 32),
  last4 text CHECK (last4 IS NULL OR last4 ~ '^[0-9]{4}$'),
  expiry_month integer CHECK (expiry_month BETWEEN 1 AND 12),
  expiry_year integer CHECK (expiry_year BETWEEN 2000 AND 2999),
  -- Credit cards: the credit-line ledger account (code card) and its limit.
  ledger_account_id uuid UNIQUE,
  credit_limit_cents bigint CHECK (credit_limit_cents IS NULL OR credit_limit_cents > 0),
  per_transaction_limit_cents bigint NOT NULL CHECK (per_transaction_limit_cents > 0),
  monthly_limit_cents bigint NOT NULL CHECK (monthly_limit_cents > 0),
  decision_reason text,
  decided_at timestamptz,
  -- A staff id, or 'system' for the sandbox's automatic approval.
  decided_by text,
  idempotency_key text NOT NULL CHECK (length(idempotency_key) BETWEEN 8 AND 100),
  request_hash bytea NOT NULL CHECK (length(request_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  closed_at timestamptz,
  UNIQUE (customer_id, idempotency_key),
  CHECK ((pan_encrypted IS NULL) = (pan_lookup IS NULL) AND (pan_lookup IS NULL) = (last4 IS NULL) AND (last4 IS NULL) = (expiry_year IS NULL)),
  CHECK (status IN ('pending_approval', 'rejected') OR pan_encrypted IS NOT NULL OR closed_at IS NOT NULL),
  CHECK (type = 'debit' OR status IN ('pending_approval', 'rejected') OR ledger_account_id IS NOT NULL OR closed_at IS NOT NULL)
);
-- One request waits at a time per customer (409 card_pending_approval); the index enforces it.
CREATE UNIQUE INDEX cards_one_pending ON cards (customer_id) WHERE status = 'pending_approval';
CREATE INDEX cards_customer ON cards (customer_id, created_at);
CREATE INDEX cards_queue ON cards (status, created_at, id);

-- "Card number viewed": every reveal, for the customer's own list (the audit log has it too).
CREATE TABLE card_reveals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  card_id uuid NOT NULL REFERENCES cards (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  device text NOT NULL,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX card_reveals_card ON card_reveals (card_id, created_at DESC);

-- Authorisations from the (simulated) card network. An approved one is a pending ledger transfer
-- with the same id; a declined one moves nothing but is kept, so the customer sees it.
CREATE TABLE card_authorizations (
  id uuid PRIMARY KEY,
  card_id uuid NOT NULL REFERENCES cards (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  cleared_cents bigint CHECK (cleared_cents IS NULL OR cleared_cents > 0),
  merchant_name text NOT NULL,
  mcc text NOT NULL CHECK (mcc ~ '^[0-9]{4}$'),
  status text NOT NULL CHECK (status IN ('pending', 'cleared', 'reversed', 'expired', 'declined')),
  decline_reason text,
  -- Who fired it: the network simulator, or staff from the console (their id).
  source text NOT NULL,
  releases_at timestamptz,
  resolved_at timestamptz,
  -- The ledger transfer that posted (cleared) or voided (reversed) the hold.
  resolution_transfer_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'declined') = (decline_reason IS NOT NULL)),
  CHECK (status <> 'cleared' OR cleared_cents IS NOT NULL)
);
CREATE INDEX card_authorizations_card ON card_authorizations (card_id, created_at DESC);
CREATE INDEX card_authorizations_pending ON card_authorizations (releases_at) WHERE status = 'pending';

-- Payments towards a credit card's balance (from the customer's checking), idempotent per key.
CREATE TABLE card_payments (
  id uuid PRIMARY KEY,
  card_id uuid NOT NULL REFERENCES cards (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  from_account_id uuid REFERENCES customer_accounts (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- 'payment' (POST /cards/{id}/payments) or 'push' (a card push from another customer).
  source text NOT NULL CHECK (source IN ('payment', 'push')),
  idempotency_key text,
  request_hash bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (customer_id, idempotency_key)
);
CREATE INDEX card_payments_card ON card_payments (card_id, created_at DESC);
