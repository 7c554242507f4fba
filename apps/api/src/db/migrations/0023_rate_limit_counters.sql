-- Issue 16: rate-limit counters shared by every API process on this database
-- (platform/rate-limit-store.ts, docs/decisions/042-rate-limits-in-the-database.md).
--
-- One row per limit (`scope`: a route, a group of routes or a named limiter) and per counted party
-- (`key`: an address or a customer). A row whose window has ended is reset by the next request and
-- deleted by the recurring sweep. UNLOGGED: a counter is not worth a WAL write and flush on every
-- payment; a crash of PostgreSQL empties the table, which gives everyone a fresh window, once.
CREATE UNLOGGED TABLE rate_limit_counters (
  scope text NOT NULL CHECK (length(scope) BETWEEN 1 AND 300),
  key text NOT NULL CHECK (length(key) BETWEEN 1 AND 300),
  hits integer NOT NULL CHECK (hits > 0),
  window_ends_at timestamptz NOT NULL,
  PRIMARY KEY (scope, key)
);
