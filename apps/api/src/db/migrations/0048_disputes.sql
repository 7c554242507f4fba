-- Issue 34: disputes, Regulation E's error resolution (docs/disputes.md, decision 076).
-- The money of a dispute (provisional credit, its reversal, a chargeback, a write-off) is ledger
-- transfers and payments of their own kinds (migration 0049); these tables hold the case.

CREATE TABLE disputes (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  -- The disputed payment (a card purchase, a transfer out, a bill payment, a withdrawal, a deposit that came in short).
  payment_id uuid NOT NULL REFERENCES payments (id),
  -- The customer account the payment moved money out of (or, for a short deposit, into): the provisional credit goes there.
  account_id uuid NOT NULL REFERENCES customer_accounts (id),
  reason text NOT NULL CHECK (reason IN ('unauthorized', 'wrong_amount', 'duplicate', 'not_received', 'cancelled', 'other')),
  description text NOT NULL,
  status text NOT NULL CHECK (status IN ('submitted', 'investigating', 'provisionally_credited', 'resolved', 'denied', 'withdrawn')),
  -- What is disputed, in cents: the payment's amount (or what the customer says is wrong with it).
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- The bank's date the notice was received, and the deadlines computed from it on the business calendar.
  received_on date NOT NULL,
  provisional_credit_by date NOT NULL,
  resolve_by date NOT NULL,
  -- Why the longer limits apply: an account open under 30 days, a point-of-sale (card) or foreign-initiated transaction.
  new_account boolean NOT NULL,
  point_of_sale boolean NOT NULL,
  -- The provisional credit given (a payment of kind dispute_credit), and when.
  provisional_credit_payment_id uuid REFERENCES payments (id),
  provisional_credit_at timestamptz,
  -- The decision: for the customer (the credit final) or denied (the credit reversed after notice).
  decision text CHECK (decision IN ('customer', 'denied')),
  decided_at timestamptz,
  decided_by uuid REFERENCES staff (id),
  -- A decision above the four-eyes threshold waits for a second, different staff member.
  pending_decision text CHECK (pending_decision IN ('customer', 'denied')),
  pending_decision_by uuid REFERENCES staff (id),
  pending_decision_reason text,
  pending_decision_at timestamptz,
  -- A denial's reversal of the provisional credit: not before this business date (5 business days' notice).
  reversal_on date,
  reversal_payment_id uuid REFERENCES payments (id),
  -- A card charge resolved for the customer: the chargeback the network pays back (a bank-side transfer).
  chargeback_transfer_id uuid,
  -- The card frozen and replaced in the same step, for an unauthorized card charge.
  card_replaced boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((decision IS NULL) = (decided_at IS NULL))
);
-- One open or decided dispute per payment: a payment is disputed once (a withdrawn one may be reported again).
CREATE UNIQUE INDEX disputes_one_per_payment ON disputes (payment_id) WHERE status <> 'withdrawn';
CREATE INDEX disputes_customer ON disputes (customer_id, created_at DESC);
CREATE INDEX disputes_open_by_deadline ON disputes (provisional_credit_by, resolve_by) WHERE status IN ('submitted', 'investigating', 'provisionally_credited');
CREATE INDEX disputes_reversals_due ON disputes (reversal_on) WHERE reversal_on IS NOT NULL AND reversal_payment_id IS NULL;

-- What happened to a case, in order: the customer's timeline and the staff's record.
CREATE TABLE dispute_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  dispute_id uuid NOT NULL REFERENCES disputes (id),
  kind text NOT NULL CHECK (kind IN (
    'submitted', 'evidence_added', 'investigating', 'information_requested', 'information_given', 'provisional_credit',
    'decision_proposed', 'resolved', 'denied', 'reversal_scheduled', 'reversed', 'chargeback', 'withdrawn', 'card_replaced'
  )),
  -- What the customer reads of it (never a staff member's internal reason).
  text text NOT NULL,
  -- Staff only: the reason given, and who.
  staff_reason text,
  staff_id uuid REFERENCES staff (id),
  -- Whether the customer sees this event (a proposed decision waiting for a second person is not shown).
  visible boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dispute_events_dispute ON dispute_events (dispute_id, id);

-- Letters: the facts each was written from, kept as they were; the PDF is drawn from them on every
-- download, so a letter never changes.
CREATE TABLE dispute_letters (
  id uuid PRIMARY KEY,
  dispute_id uuid NOT NULL REFERENCES disputes (id),
  kind text NOT NULL CHECK (kind IN ('acknowledgement', 'provisional_credit', 'result', 'information_request', 'reversal_notice')),
  facts jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (dispute_id, kind)
);
CREATE INDEX dispute_letters_dispute ON dispute_letters (dispute_id, created_at);

-- Evidence the customer sent: an image or a PDF, checked and stored as identity documents are.
CREATE TABLE dispute_evidence (
  id uuid PRIMARY KEY,
  dispute_id uuid NOT NULL REFERENCES disputes (id),
  file_name text NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'application/pdf')),
  byte_size integer NOT NULL CHECK (byte_size > 0),
  storage_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dispute_evidence_dispute ON dispute_evidence (dispute_id, created_at);
