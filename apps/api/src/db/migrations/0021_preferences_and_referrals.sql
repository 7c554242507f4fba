-- Issue 15, Settings and Invite: the customer's saved contact preferences (the seed's More Options
-- switches, D12), referral codes, and referrals with their $10.00 bonus (docs/decisions/032).

-- One row per customer once they save a switch; a customer without a row has the defaults
-- (packages/contracts/src/profile.ts: everything off, nobody is opted in to marketing).
CREATE TABLE customer_preferences (
  customer_id uuid PRIMARY KEY REFERENCES customers (id),
  newsletter boolean NOT NULL,
  text_messages boolean NOT NULL,
  phone_calls boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A customer's own code, made the first time they open Invite; it never changes.
CREATE TABLE referral_codes (
  customer_id uuid PRIMARY KEY REFERENCES customers (id),
  code text NOT NULL UNIQUE CHECK (code ~ '^[0-9A-Z]{8}$'),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Who brought whom. The unique referred customer is the "once per referred customer" rule: a second
-- approval (or a replayed job) finds the row already paid, and the bonus transfer's id is derived
-- from the referred customer too, so the ledger answers `exists` for any repeat.
CREATE TABLE referrals (
  id uuid PRIMARY KEY,
  referrer_customer_id uuid NOT NULL REFERENCES customers (id),
  referred_customer_id uuid NOT NULL UNIQUE REFERENCES customers (id),
  status text NOT NULL CHECK (status IN ('pending', 'paid')),
  bonus_cents bigint NOT NULL CHECK (bonus_cents > 0),
  bonus_transfer_id uuid NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  CHECK (referrer_customer_id <> referred_customer_id),
  CHECK ((status = 'paid') = (paid_at IS NOT NULL))
);
CREATE INDEX referrals_referrer ON referrals (referrer_customer_id, created_at DESC, id DESC);

-- The bonus is a history line like any other payment (marketing expense -> checking).
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check
  CHECK (kind IN ('own', 'internal', 'external', 'card', 'deposit', 'withdrawal', 'funding', 'loan_disbursement', 'loan_repayment', 'referral_bonus'));
