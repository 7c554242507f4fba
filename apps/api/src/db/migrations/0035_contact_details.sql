-- Issue 39, item 7 (docs/decisions/059-self-service-contact-details.md): a customer changes their email,
-- phone and postal address themselves; staff correct them with a reason.

-- A change of email waits here until the link sent to the new address is followed. Only the token's
-- SHA-256 is kept; a link works once, until it expires, and only for the customer who asked.
CREATE TABLE email_changes (
  token_hash bytea PRIMARY KEY CHECK (length(token_hash) = 32),
  customer_id uuid NOT NULL REFERENCES customers (id),
  new_email text NOT NULL CHECK (length(new_email) BETWEEN 3 AND 254),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  superseded_at timestamptz
);
CREATE INDEX email_changes_customer ON email_changes (customer_id, created_at DESC);

-- A change of phone waits here until the code sent to the new number is confirmed: the code as a
-- keyed hash bound to the customer, five tries, ten minutes, one use.
CREATE TABLE phone_changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  phone_e164 text NOT NULL CHECK (phone_e164 ~ '^\+[1-9][0-9]{6,14}$'),
  phone_country text NOT NULL CHECK (phone_country ~ '^[A-Z]{2}$'),
  code_hash bytea NOT NULL CHECK (length(code_hash) = 32),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  superseded_at timestamptz
);
CREATE INDEX phone_changes_customer ON phone_changes (customer_id, created_at DESC);

-- The customer's postal address once they (or staff) changed it; until then it is the one of their
-- latest identity review. The same fields and rules as that review's (decision 055).
CREATE TABLE customer_addresses (
  customer_id uuid PRIMARY KEY REFERENCES customers (id),
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  address text NOT NULL CHECK (length(address) BETWEEN 1 AND 300),
  city text NOT NULL CHECK (length(city) BETWEEN 1 AND 100),
  state text NOT NULL CHECK (length(state) BETWEEN 1 AND 100),
  zip_code text NOT NULL CHECK (zip_code ~ '^[0-9]{5}(-[0-9]{4})?$'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
