-- Issue 30, items 5 and 13: sign-in failures are counted before the password is checked, and the
-- count that sets the wait forgives failures as time passes (docs/decisions/049).
--
-- recent_failures is that count: a leaky bucket that drains at one failure per policy interval
-- since last_failure_at (platform/login-throttle.ts), so an address shared behind one NAT is no
-- longer blocked for ever after its twentieth failure. consecutive_failures stays the plain count
-- since the last success, which forgives nothing: NIST's 100 consecutive failures still ask for a
-- password reset. Existing rows start with what they had, and drain from their last failure.
ALTER TABLE login_throttle ADD COLUMN recent_failures double precision NOT NULL DEFAULT 0 CHECK (recent_failures >= 0);
UPDATE login_throttle SET recent_failures = consecutive_failures;
