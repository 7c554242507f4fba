-- Security events record the client's user agent beside its address (issue: identity, item 10).
ALTER TABLE audit_log ADD COLUMN user_agent text CHECK (length(user_agent) <= 300);
