-- Issue 32 (docs/decisions/072-deposit-products-interest-and-fees.md): deposit products as data,
-- with effective-dated terms; each customer account is of one product; the end-of-day job's days,
-- daily interest accruals, and the monthly statements each cycle closes. Interest and fees are
-- payments of their own kinds, so history and statements show them like any other.

CREATE TABLE deposit_products (
  id uuid PRIMARY KEY,
  -- The slug the public pages and sign-up carry (packages/contracts/src/products.ts).
  code text NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{2,60}$'),
  kind text NOT NULL CHECK (kind IN ('checking', 'savings')),
  name text NOT NULL,
  -- Order on the public pages, within a kind.
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A product's terms from a date on: a change is a new row dated after the bank's today, so the
-- terms of any past day never change (docs/deposit-products.md).
CREATE TABLE deposit_product_terms (
  id uuid PRIMARY KEY,
  product_id uuid NOT NULL REFERENCES deposit_products (id),
  effective_from date NOT NULL,
  monthly_fee_cents bigint NOT NULL CHECK (monthly_fee_cents >= 0),
  -- The monthly fee is waived when the lowest end-of-day balance in the cycle reached this ...
  waiver_min_daily_balance_cents bigint CHECK (waiver_min_daily_balance_cents >= 0),
  -- ... or when deposits in the cycle reached this; null: no such waiver.
  waiver_monthly_deposits_cents bigint CHECK (waiver_monthly_deposits_cents >= 0),
  opening_deposit_cents bigint NOT NULL CHECK (opening_deposit_cents >= 0),
  -- [{ "fromCents": 0, "rateBps": 150 }, ...], ascending: the whole balance earns the rate of the
  -- highest tier it reaches. Rates in basis points (1/100 of a percent), 0 to 10000.
  interest_tiers jsonb NOT NULL,
  reason text NOT NULL,
  staff_id uuid REFERENCES staff (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (product_id, effective_from)
);

INSERT INTO deposit_products (id, code, kind, name, position) VALUES
  ('00000000-0000-4000-8000-00000000d001', 'easy-checking', 'checking', 'Easy Checking', 1),
  ('00000000-0000-4000-8000-00000000d002', 'gold-checking', 'checking', 'Gold Checking', 2),
  ('00000000-0000-4000-8000-00000000d003', 'platinum-checking', 'checking', 'Platinum Checking', 3),
  ('00000000-0000-4000-8000-00000000d004', 'standard-savings', 'savings', 'Standard Savings', 1),
  ('00000000-0000-4000-8000-00000000d005', 'platinum-select-money-market-savings', 'savings', 'Platinum Select Money Market Savings', 2),
  ('00000000-0000-4000-8000-00000000d006', 'package-money-market-savings', 'savings', 'Package Money Market Savings', 3);

-- The seed's prices, in force from the start of time.
INSERT INTO deposit_product_terms
  (id, product_id, effective_from, monthly_fee_cents, waiver_min_daily_balance_cents, waiver_monthly_deposits_cents, opening_deposit_cents, interest_tiers, reason)
VALUES
  ('00000000-0000-4000-8000-00000000e001', '00000000-0000-4000-8000-00000000d001', '2000-01-01', 695, 150000, 50000, 0,
   '[{"fromCents": 0, "rateBps": 0}]', 'The published price of Easy Checking'),
  ('00000000-0000-4000-8000-00000000e002', '00000000-0000-4000-8000-00000000d002', '2000-01-01', 1495, 500000, 250000, 0,
   '[{"fromCents": 0, "rateBps": 5}]', 'The published price of Gold Checking'),
  ('00000000-0000-4000-8000-00000000e003', '00000000-0000-4000-8000-00000000d003', '2000-01-01', 2495, 1500000, NULL, 0,
   '[{"fromCents": 0, "rateBps": 10}, {"fromCents": 2500000, "rateBps": 25}]', 'The published price of Platinum Checking'),
  ('00000000-0000-4000-8000-00000000e004', '00000000-0000-4000-8000-00000000d004', '2000-01-01', 0, NULL, NULL, 50000,
   '[{"fromCents": 0, "rateBps": 150}]', 'The published terms of Standard Savings'),
  ('00000000-0000-4000-8000-00000000e005', '00000000-0000-4000-8000-00000000d005', '2000-01-01', 0, NULL, NULL, 250000,
   '[{"fromCents": 0, "rateBps": 200}, {"fromCents": 1000000, "rateBps": 250}]', 'The published terms of Platinum Select Money Market Savings'),
  ('00000000-0000-4000-8000-00000000e006', '00000000-0000-4000-8000-00000000d006', '2000-01-01', 0, NULL, NULL, 500000,
   '[{"fromCents": 0, "rateBps": 250}, {"fromCents": 2500000, "rateBps": 300}]', 'The published terms of Package Money Market Savings');

ALTER TABLE customer_accounts ADD COLUMN product_id uuid REFERENCES deposit_products (id);
ALTER TABLE customer_accounts ADD COLUMN closed_at timestamptz;
-- Accounts opened before products were data are of the product they are named after, else their kind's first.
UPDATE customer_accounts a SET product_id = p.id FROM deposit_products p WHERE p.name = a.name;
UPDATE customer_accounts a SET product_id = p.id FROM deposit_products p
  WHERE a.product_id IS NULL AND p.kind = a.type AND p.position = 1;
ALTER TABLE customer_accounts ALTER COLUMN product_id SET NOT NULL;
ALTER TABLE customer_accounts ADD CONSTRAINT customer_accounts_closed_at CHECK ((status = 'closed') = (closed_at IS NOT NULL));

-- Interest, fees and fee refunds are payments of their own kinds (modules/money/kinds.ts).
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check
  CHECK (kind IN ('own', 'internal', 'external', 'card', 'deposit', 'withdrawal', 'funding', 'loan_disbursement', 'loan_repayment', 'referral_bonus',
                  'interest', 'fee', 'fee_refund'));

-- Each business day the end-of-day job has run (or is running): it runs each one once, in order.
CREATE TABLE business_days (
  day date PRIMARY KEY,
  -- The calendar days this run covered: the days after the previous run's, up to its own.
  covers_from date NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'done')),
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  interest_posted_cents bigint NOT NULL DEFAULT 0,
  fees_charged_cents bigint NOT NULL DEFAULT 0,
  CHECK (covers_from <= day),
  CHECK ((status = 'done') = (finished_at IS NOT NULL))
);

-- One calendar day's interest on one account, exact: `accrued_units` is in 1/1,335,900,000 of a
-- cent (10,000 basis points x 365 x 366), so a day of a 365- or a 366-day year is a whole number.
CREATE TABLE interest_accruals (
  account_id uuid NOT NULL REFERENCES customer_accounts (id),
  day date NOT NULL,
  balance_cents bigint NOT NULL,
  rate_bps integer NOT NULL CHECK (rate_bps BETWEEN 0 AND 10000),
  accrued_units numeric(40, 0) NOT NULL CHECK (accrued_units >= 0),
  PRIMARY KEY (account_id, day)
);

-- A cycle's statement, written in the transaction that posts its interest and fee. Its lines are
-- the account's ledger transfers after `after_sequence` up to `through_sequence`: consecutive
-- statements neither skip nor repeat a line, and each ties out by construction.
CREATE TABLE monthly_statements (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES customer_accounts (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  period_start date NOT NULL,
  period_end date NOT NULL,
  after_sequence bigint NOT NULL,
  through_sequence bigint NOT NULL,
  opening_balance_cents bigint NOT NULL,
  closing_balance_cents bigint NOT NULL,
  credits_cents bigint NOT NULL CHECK (credits_cents >= 0),
  debits_cents bigint NOT NULL CHECK (debits_cents >= 0),
  average_daily_balance_cents bigint NOT NULL,
  days integer NOT NULL CHECK (days > 0),
  interest_cents bigint NOT NULL CHECK (interest_cents >= 0),
  interest_year_cents bigint NOT NULL CHECK (interest_year_cents >= 0),
  fees_cents bigint NOT NULL CHECK (fees_cents >= 0),
  fees_year_cents bigint NOT NULL CHECK (fees_year_cents >= 0),
  apy_earned_bps integer NOT NULL CHECK (apy_earned_bps >= 0),
  -- The monthly fee's outcome, as the statement and History say it.
  fee_note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, period_end),
  CHECK (period_start <= period_end),
  CHECK (after_sequence <= through_sequence),
  CHECK (opening_balance_cents + credits_cents - debits_cents = closing_balance_cents)
);
CREATE INDEX monthly_statements_customer ON monthly_statements (customer_id, period_end DESC);
