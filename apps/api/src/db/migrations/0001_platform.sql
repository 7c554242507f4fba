-- Platform tables: bank settings, the outbox of mail and SMS, the job queue, sessions and the
-- append-only audit log. Money tables come with the ledger.

CREATE TABLE bank_settings (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  address text NOT NULL,
  phone text NOT NULL,
  support_email text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO bank_settings (address, phone, support_email)
VALUES ('100 Vault Street, Suite 200, Springfield, IL 62701, USA', '+1 (202) 555-0100', 'support@strongroom.example');

CREATE TABLE outbox_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  to_address text NOT NULL CHECK (length(to_address) BETWEEN 3 AND 320),
  subject text NOT NULL DEFAULT '',
  text_body text NOT NULL,
  html_body text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX outbox_messages_to_created ON outbox_messages (lower(to_address), created_at DESC);

CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts BETWEEN 1 AND 100),
  locked_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  CHECK (attempts <= max_attempts)
);
CREATE INDEX jobs_ready ON jobs (run_at, id) WHERE status = 'queued';
CREATE INDEX jobs_running ON jobs (locked_at) WHERE status = 'running';

CREATE TABLE sessions (
  id_hash bytea PRIMARY KEY CHECK (length(id_hash) = 32),
  realm text NOT NULL CHECK (realm IN ('customer', 'staff')),
  subject_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  absolute_expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  ip text,
  user_agent text
);
CREATE INDEX sessions_subject ON sessions (realm, subject_id) WHERE ended_at IS NULL;

CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  actor_type text NOT NULL CHECK (actor_type IN ('customer', 'staff', 'system', 'anonymous')),
  actor_id text,
  action text NOT NULL,
  subject text,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
  ip text,
  request_id text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_actor ON audit_log (actor_type, actor_id, occurred_at DESC);

-- The audit log is append-only: the database itself refuses to change or remove a row.
CREATE FUNCTION audit_log_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_is_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_is_append_only();
