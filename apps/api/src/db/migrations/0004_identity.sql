-- Customers and their onboarding: email and phone verification, password recovery, uploaded files,
-- identity reviews, login throttling, and the product accounts opened on approval.

CREATE TABLE customers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_normalized text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  email_verified_at timestamptz,
  phone_e164 text,
  phone_country text CHECK (phone_country ~ '^[A-Z]{2}$'),
  phone_verified_at timestamptz,
  profile_photo_file_id uuid,
  password_changed_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (phone_verified_at IS NULL OR phone_e164 IS NOT NULL)
);

CREATE TABLE email_verifications (
  token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
  customer_id uuid NOT NULL REFERENCES customers (id),
  browser_hash bytea NOT NULL CHECK (length(browser_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_verifications_browser ON email_verifications (browser_hash);
CREATE INDEX email_verifications_customer ON email_verifications (customer_id);

CREATE TABLE password_resets (
  token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
  customer_id uuid NOT NULL REFERENCES customers (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_customer ON password_resets (customer_id);

CREATE TABLE phone_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  phone_e164 text NOT NULL,
  phone_country text NOT NULL,
  code_hash bytea NOT NULL CHECK (length(code_hash) = 32),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  superseded_at timestamptz
);
CREATE INDEX phone_codes_customer ON phone_codes (customer_id, created_at DESC);

CREATE TABLE stored_files (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_customer_id uuid NOT NULL REFERENCES customers (id),
  purpose text NOT NULL CHECK (purpose IN ('identity_document', 'profile_photo')),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  byte_size integer NOT NULL CHECK (byte_size > 0),
  storage_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stored_files_owner ON stored_files (owner_customer_id);

ALTER TABLE customers ADD CONSTRAINT customers_profile_photo FOREIGN KEY (profile_photo_file_id) REFERENCES stored_files (id);

CREATE TABLE identity_reviews (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  document_file_id uuid REFERENCES stored_files (id),
  id_number_encrypted bytea NOT NULL,
  id_number_last4 text NOT NULL CHECK (length(id_number_last4) BETWEEN 1 AND 4),
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  state text NOT NULL CHECK (length(state) BETWEEN 1 AND 100),
  address text NOT NULL CHECK (length(address) BETWEEN 1 AND 300),
  status text NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'approved', 'rejected')),
  reason text,
  submitted_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by text,
  CHECK ((status = 'submitted') = (decided_at IS NULL)),
  CHECK (status <> 'rejected' OR reason IS NOT NULL)
);
CREATE INDEX identity_reviews_customer ON identity_reviews (customer_id, submitted_at DESC);
-- One review in progress per customer at a time.
CREATE UNIQUE INDEX identity_reviews_one_open ON identity_reviews (customer_id) WHERE status = 'submitted';

CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_failure_at timestamptz,
  blocked_until timestamptz
);

CREATE TABLE customer_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  type text NOT NULL CHECK (type IN ('checking', 'savings')),
  number text NOT NULL UNIQUE CHECK (number ~ '^[0-9]{10}$'),
  name text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'closed')),
  ledger_account_id uuid UNIQUE,
  opened_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_accounts_customer ON customer_accounts (customer_id, opened_at);
