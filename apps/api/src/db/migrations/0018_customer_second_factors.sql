-- Customers' second factors and sessions (issue 15, Security; docs/decisions/029).

-- An authenticator app (RFC 6238). At most one per customer: enrolment writes the row unconfirmed,
-- a correct code confirms it; until then it answers no step-up. The secret is sealed with the
-- server's encryption key (AES-256-GCM, as the staff one is); last_step is the 30-second step of the
-- last code accepted, so a code is never accepted twice.
CREATE TABLE customer_totp (
  customer_id uuid PRIMARY KEY REFERENCES customers (id),
  secret_encrypted bytea NOT NULL,
  last_step bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz
);

-- Ten one-time recovery codes, made when the app is confirmed, shown once, stored as keyed hashes;
-- each answers one step-up. A new enrolment or removing the app deletes them.
CREATE TABLE customer_recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  code_hash bytea NOT NULL UNIQUE CHECK (length(code_hash) = 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz
);
CREATE INDEX customer_recovery_codes_customer ON customer_recovery_codes (customer_id);

-- A step-up may now be answered by an authenticator app, a recovery code or a passkey: the SMS code
-- is sent when asked for, not always at creation (then there is no code and no send yet).
ALTER TABLE step_up_challenges ALTER COLUMN code_hash DROP NOT NULL;
ALTER TABLE step_up_challenges DROP CONSTRAINT step_up_challenges_sends_check;
ALTER TABLE step_up_challenges ADD CONSTRAINT step_up_challenges_sends_check CHECK (sends BETWEEN 0 AND 5);
-- How it was answered: sms, totp, recovery_code, passkey.
ALTER TABLE step_up_challenges ADD COLUMN verified_method text CHECK (verified_method IN ('sms', 'totp', 'recovery_code', 'passkey'));
-- A challenge for a money action is refused while staff froze the customer; one for a password or
-- second-factor change is not (a frozen customer may still protect their account).
ALTER TABLE step_up_challenges ADD COLUMN guards_money boolean NOT NULL DEFAULT true;
-- The SMS's words for what the code authorises, for a text sent after creation ('changing your password').
ALTER TABLE step_up_challenges ADD COLUMN purpose text CHECK (length(purpose) <= 200);

-- The id a customer's session list shows: never the hash that finds the session by its cookie.
ALTER TABLE sessions ADD COLUMN public_id uuid NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX sessions_public_id ON sessions (public_id);
