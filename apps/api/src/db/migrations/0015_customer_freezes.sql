-- Customer care (issue 12, "Customers"): staff may freeze a customer. A frozen customer can sign in
-- and read everything but moves no money. Each freeze is a row, kept after it is lifted, so the
-- history of who froze whom, when and why survives; at most one freeze is open per customer.

CREATE TABLE customer_freezes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  reason text NOT NULL CHECK (length(reason) BETWEEN 3 AND 500),
  frozen_by uuid NOT NULL REFERENCES staff (id),
  frozen_at timestamptz NOT NULL DEFAULT now(),
  unfrozen_at timestamptz,
  unfrozen_by uuid REFERENCES staff (id),
  unfreeze_reason text CHECK (unfreeze_reason IS NULL OR length(unfreeze_reason) BETWEEN 3 AND 500),
  CHECK ((unfrozen_at IS NULL) = (unfrozen_by IS NULL) AND (unfrozen_at IS NULL) = (unfreeze_reason IS NULL))
);
-- The freeze check on every money request reads this index; a second open freeze is refused here.
CREATE UNIQUE INDEX customer_freezes_open ON customer_freezes (customer_id) WHERE unfrozen_at IS NULL;
CREATE INDEX customer_freezes_customer ON customer_freezes (customer_id, frozen_at DESC);
