-- Receipts and history filters (issue 7). See docs/decisions/017-receipts.md.

-- One reference per history line (one side of one payment). It is an HMAC of the line's id with a
-- server key, so nobody can guess one, and it is stored the first time the line's details or
-- receipt are asked for, because the public verification page must find the line from the
-- reference alone. A stored reference stays valid even if the key is later replaced.
CREATE TABLE receipt_references (
  reference text PRIMARY KEY CHECK (reference ~ '^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$'),
  payment_id uuid NOT NULL REFERENCES payments (id),
  side text NOT NULL CHECK (side IN ('in', 'out')),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (payment_id, side)
);

-- History filtered by category reads one kind of payment at a time, newest first: without these a
-- rare category (the single opening deposit among a million transfers) would scan the whole account.
CREATE INDEX payments_from_account_kind ON payments (from_account_id, kind, created_at DESC, id DESC) WHERE status <> 'failed';
CREATE INDEX payments_to_account_kind ON payments (to_account_id, kind, created_at DESC, id DESC) WHERE status <> 'failed';
