-- The back office (docs/product.md D16): staff, a realm apart from customers, and a hash-chained audit log.

CREATE TABLE staff (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  email_normalized text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('support', 'compliance', 'operations', 'admin')),
  -- The authenticator's shared secret, AES-256-GCM under the server's encryption key.
  totp_secret_encrypted bytea NOT NULL,
  -- The newest 30-second step whose code signed in: a code is accepted once (RFC 6238 section 5.2).
  totp_last_step bigint NOT NULL DEFAULT 0,
  disabled_at timestamptz,
  created_by uuid REFERENCES staff (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  password_changed_at timestamptz NOT NULL DEFAULT now()
);

-- Each audit row holds the hash of the row before it and its own: a row changed or removed behind
-- the application's back breaks the chain, which `npm run ops -- check-audit` verifies.
ALTER TABLE audit_log ADD COLUMN chain_seq bigint;
ALTER TABLE audit_log ADD COLUMN prev_hash bytea;
ALTER TABLE audit_log ADD COLUMN row_hash bytea;

-- The canonical content of a row: each field as 'v' and its text, or 'n' for null, joined by the
-- unit separator. modules/audit/chain.ts builds the same text to verify a row.
CREATE FUNCTION audit_log_canonical(
  seq bigint, occurred timestamptz, actor_type text, actor_id text, action text, subject text,
  outcome text, ip text, request_id text, user_agent text, details jsonb
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT concat_ws(E'\x1f',
    'v' || seq::text,
    'v' || to_char(occurred AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    coalesce('v' || actor_type, 'n'),
    coalesce('v' || actor_id, 'n'),
    coalesce('v' || action, 'n'),
    coalesce('v' || subject, 'n'),
    coalesce('v' || outcome, 'n'),
    coalesce('v' || ip, 'n'),
    coalesce('v' || request_id, 'n'),
    coalesce('v' || user_agent, 'n'),
    coalesce('v' || details::text, 'n'))
$$;

CREATE FUNCTION audit_log_row_hash(prev bytea, canonical text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT sha256(convert_to(coalesce(encode(prev, 'hex'), '') || E'\x1f' || canonical, 'UTF8'))
$$;

-- Chain the rows written before this migration, in the order they were written.
DO $$
DECLARE
  entry record;
  seq bigint := 0;
  previous bytea := NULL;
  own bytea;
BEGIN
  ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update;
  FOR entry IN SELECT * FROM audit_log ORDER BY id LOOP
    seq := seq + 1;
    own := audit_log_row_hash(previous, audit_log_canonical(seq, entry.occurred_at, entry.actor_type, entry.actor_id, entry.action,
      entry.subject, entry.outcome, entry.ip, entry.request_id, entry.user_agent, entry.details));
    UPDATE audit_log SET chain_seq = seq, prev_hash = previous, row_hash = own WHERE id = entry.id;
    previous := own;
  END LOOP;
  ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_update;
END;
$$;

ALTER TABLE audit_log ALTER COLUMN chain_seq SET NOT NULL;
ALTER TABLE audit_log ALTER COLUMN row_hash SET NOT NULL;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_chain_seq_unique UNIQUE (chain_seq);
ALTER TABLE audit_log ADD CONSTRAINT audit_log_row_hash_length CHECK (length(row_hash) = 32);
CREATE INDEX audit_log_occurred ON audit_log (occurred_at DESC, id DESC);
CREATE INDEX audit_log_action ON audit_log (action, occurred_at DESC);
CREATE INDEX audit_log_subject ON audit_log (subject, occurred_at DESC);

-- Writers take turns (a transaction-scoped lock, held until the writer commits), so each row sees
-- the one before it; the statement after the lock reads a fresh snapshot (READ COMMITTED).
CREATE FUNCTION audit_log_chain() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  last_seq bigint;
  last_hash bytea;
BEGIN
  PERFORM pg_advisory_xact_lock(5316842730152);
  SELECT chain_seq, row_hash INTO last_seq, last_hash FROM audit_log ORDER BY chain_seq DESC LIMIT 1;
  NEW.chain_seq := coalesce(last_seq, 0) + 1;
  NEW.prev_hash := last_hash;
  NEW.row_hash := audit_log_row_hash(last_hash, audit_log_canonical(NEW.chain_seq, NEW.occurred_at, NEW.actor_type, NEW.actor_id,
    NEW.action, NEW.subject, NEW.outcome, NEW.ip, NEW.request_id, NEW.user_agent, NEW.details));
  RETURN NEW;
END;
$$;
CREATE TRIGGER audit_log_chain BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_chain();

