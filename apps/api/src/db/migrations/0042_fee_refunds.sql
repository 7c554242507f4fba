-- Issue 32 item 4 (docs/deposit-products.md, "Fee refunds"): staff give a customer's fee back, whole,
-- once. A refund of a fee under the four-eyes threshold moves the money at once; one at or above it
-- is first asked for by one staff member ('awaiting_approval') and moved when a different one
-- approves ('refunded'), or not ('rejected', after which it may be asked for again).

CREATE TABLE fee_refunds (
  id uuid PRIMARY KEY,
  -- The fee paid (a payment of kind 'fee').
  fee_payment_id uuid NOT NULL REFERENCES payments (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  status text NOT NULL CHECK (status IN ('awaiting_approval', 'refunded', 'rejected')),
  requested_by uuid NOT NULL REFERENCES staff (id),
  request_reason text NOT NULL,
  decided_by uuid REFERENCES staff (id),
  decision_reason text,
  decided_at timestamptz,
  -- The fee_refund payment (its id derived from the fee's) and the account it paid into.
  refund_payment_id uuid REFERENCES payments (id),
  to_account_id uuid REFERENCES customer_accounts (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'awaiting_approval') = (decided_at IS NULL)),
  CHECK ((status = 'refunded') = (refund_payment_id IS NOT NULL))
);
-- A fee has at most one refund asked for or made: a second request, or a second approval, finds it.
CREATE UNIQUE INDEX fee_refunds_one_per_fee ON fee_refunds (fee_payment_id) WHERE status IN ('awaiting_approval', 'refunded');
CREATE INDEX fee_refunds_customer ON fee_refunds (customer_id, created_at DESC);
