-- Passkeys (issue 15, docs/decisions/030): a customer's WebAuthn credentials, to sign in and to
-- answer a step-up. Only the public key is kept; the private key never leaves the authenticator.
CREATE TABLE passkeys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  -- The credential id the authenticator chose, base64url: one credential belongs to one customer.
  credential_id text NOT NULL UNIQUE CHECK (length(credential_id) BETWEEN 16 AND 1400),
  -- COSE public key, as the library verifies with it.
  public_key bytea NOT NULL,
  -- The authenticator's signature counter (0 for most passkeys, which do not count).
  sign_count bigint NOT NULL DEFAULT 0 CHECK (sign_count >= 0),
  -- Comma-separated transports the browser reported ('internal,hybrid'), hints for the next prompt.
  transports text NOT NULL DEFAULT '' CHECK (length(transports) <= 200),
  device_type text NOT NULL CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up boolean NOT NULL,
  aaguid text NOT NULL CHECK (length(aaguid) <= 36),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX passkeys_customer ON passkeys (customer_id, created_at);

-- Every WebAuthn challenge the server hands out, kept as a SHA-256 of its base64url text: used once
-- (used_at), for one purpose, within a few minutes. A registration and a step-up are bound to the
-- signed-in customer; a sign-in challenge to nobody yet (the passkey tells who it is).
CREATE TABLE passkey_challenges (
  challenge_hash bytea PRIMARY KEY,
  purpose text NOT NULL CHECK (purpose IN ('register', 'sign_in', 'step_up')),
  customer_id uuid REFERENCES customers (id) ON DELETE CASCADE,
  step_up_challenge_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK ((purpose = 'sign_in') = (customer_id IS NULL)),
  CHECK ((purpose = 'step_up') = (step_up_challenge_id IS NOT NULL))
);
CREATE INDEX passkey_challenges_expiry ON passkey_challenges (expires_at);
