-- Issue 38 (docs/connected-apps.md): customers share their data with apps they choose, through an
-- FDX-shaped API behind OAuth 2.0 (FAPI 2.0: PAR, PKCE, DPoP) and a consent they can revoke.

-- A data recipient: an app registered by staff, and the OAuth client it signs in as. It proves who
-- it is with a key of its own (private_key_jwt): the bank keeps only its public keys (jwks).
CREATE TABLE data_recipients (
  id uuid PRIMARY KEY,
  client_id text NOT NULL UNIQUE CHECK (client_id ~ '^[A-Za-z0-9_-]{8,64}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  -- An https address (http on loopback in the sandbox) the consent page shows; null: initials.
  logo_url text CHECK (length(logo_url) <= 500),
  contact_email text NOT NULL CHECK (length(contact_email) BETWEEN 3 AND 254),
  redirect_uris text[] NOT NULL CHECK (cardinality(redirect_uris) BETWEEN 1 AND 10),
  allowed_scopes text[] NOT NULL CHECK (cardinality(allowed_scopes) >= 1),
  jwks jsonb NOT NULL,
  -- Requests a minute one recipient may make to the resource API, over all its customers.
  rate_limit_per_minute integer NOT NULL DEFAULT 120 CHECK (rate_limit_per_minute BETWEEN 1 AND 100000),
  enabled boolean NOT NULL DEFAULT true,
  created_by uuid REFERENCES staff (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- What the authorization server (oidc-provider) keeps between requests: pushed requests,
-- interactions, authorization codes, grants, access and refresh tokens, replay marks. One row per
-- model and id, so every process sees what another issued or revoked.
CREATE TABLE oauth_store (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  expires_at timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_store_grant ON oauth_store (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_store_uid ON oauth_store (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oauth_store_expiry ON oauth_store (expires_at) WHERE expires_at IS NOT NULL;

-- The authorization server's signing keys, sealed with the bank's encryption key like its other
-- secrets. The newest active key signs; retired keys stay published until their tokens are gone.
CREATE TABLE oauth_signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  sealed_private_jwk bytea NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
);

-- A customer's consent: one recipient, the data clusters (OAuth scopes) and the accounts chosen,
-- until when. Revoking it ends every token of its grant on the very next request.
CREATE TABLE connected_app_consents (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  recipient_id uuid NOT NULL REFERENCES data_recipients (id),
  -- oidc-provider's grant, set when the authorization finishes (null while it is being given).
  grant_id text UNIQUE,
  scopes text[] NOT NULL CHECK (cardinality(scopes) >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL CHECK (expires_at > created_at AND expires_at <= created_at + interval '366 days'),
  revoked_at timestamptz,
  -- 'app': the app revoked its refresh token (RFC 7009), or the authorization server ended the
  -- grant itself (a replayed code): either way nothing of the grant is left, so nor is the consent.
  revoked_by text CHECK (revoked_by IN ('customer', 'staff', 'recipient_disabled', 'app')),
  last_used_at timestamptz,
  CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX connected_app_consents_customer ON connected_app_consents (customer_id, created_at DESC);
CREATE INDEX connected_app_consents_recipient ON connected_app_consents (recipient_id) WHERE revoked_at IS NULL;

CREATE TABLE connected_app_consent_accounts (
  consent_id uuid NOT NULL REFERENCES connected_app_consents (id),
  account_id uuid NOT NULL REFERENCES customer_accounts (id),
  PRIMARY KEY (consent_id, account_id)
);

-- The resource API refuses a DPoP proof it has seen (RFC 9449 section 11.1): its jti, hashed, kept
-- until the proof would be too old anyway.
CREATE TABLE dpop_proofs_seen (
  jti_hash bytea PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX dpop_proofs_seen_expiry ON dpop_proofs_seen (expires_at);
