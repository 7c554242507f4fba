-- The browsers a customer has signed in from, so "New sign-in" is written once per browser, not
-- once per sign-in (issue 18, item 10). A browser is known by a long-lived random cookie; only its
-- SHA-256 is kept, per customer, so one shared browser is new to each customer who uses it.
CREATE TABLE known_devices (
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  device_hash bytea NOT NULL,
  user_agent text CHECK (length(user_agent) <= 300),
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, device_hash)
);
