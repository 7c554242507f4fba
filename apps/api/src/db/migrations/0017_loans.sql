-- Loans (issue 14, docs/decisions/027-loans.md): the application and its decision, the schedule of
-- instalments, and the repayments. Money moves only by ledger transfers; these tables hold the
-- business side, keyed by the transfers' ids as the payments table is.

-- Interest the bank earns on its loans: credit-normal income, code 121 (apps/api/src/ledger/codes.ts).
INSERT INTO ledger_accounts (id, ledger, code, flags) VALUES
  ('00000000-0000-4000-8000-000000000121', 840, 121, 0); -- interest income

-- A loan's money shows in the customer's history as payments of two new kinds.
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check
  CHECK (kind IN ('own', 'internal', 'external', 'card', 'deposit', 'withdrawal', 'funding', 'loan_disbursement', 'loan_repayment'));

CREATE TABLE loans (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  status text NOT NULL CHECK (status IN ('submitted', 'rejected', 'active', 'paid_off')),
  marital_status text NOT NULL CHECK (marital_status IN ('single', 'married', 'divorced', 'widowed', 'separated')),
  occupation text NOT NULL CHECK (length(occupation) BETWEEN 1 AND 100),
  address text NOT NULL CHECK (length(address) BETWEEN 1 AND 200),
  purpose text NOT NULL CHECK (length(purpose) BETWEEN 1 AND 300),
  requested_amount_cents bigint NOT NULL CHECK (requested_amount_cents > 0),
  annual_income_cents bigint NOT NULL CHECK (annual_income_cents > 0),
  duration_months integer NOT NULL CHECK (duration_months BETWEEN 1 AND 600),
  -- The checking account the money is paid into and the instalments are taken from.
  checking_account_id uuid NOT NULL REFERENCES customer_accounts (id),
  -- The approved terms.
  amount_cents bigint CHECK (amount_cents > 0 AND amount_cents <= requested_amount_cents),
  apr_bps integer CHECK (apr_bps BETWEEN 0 AND 3600),
  term_months integer CHECK (term_months BETWEEN 1 AND 84),
  -- The disclosure as made at approval (Reg Z 1026.18); the APR in hundredths of a basis point.
  amount_financed_cents bigint,
  finance_charge_cents bigint,
  disclosed_apr_centi_bps integer,
  total_of_payments_cents bigint,
  -- The disbursement's ledger transfer (and payments row): loans receivable -> checking.
  disbursement_transfer_id uuid UNIQUE,
  disbursed_on date,
  disbursed_at timestamptz,
  decision_reason text CHECK (decision_reason IS NULL OR length(decision_reason) BETWEEN 3 AND 500),
  decided_by uuid REFERENCES staff (id),
  decided_at timestamptz,
  paid_off_at timestamptz,
  -- A short lease while money of this loan moves (an instalment or an early repayment): the two
  -- never run on one loan at once, and a lease a crash left behind lapses by itself.
  busy_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'submitted') = (decided_at IS NULL)),
  CHECK (status NOT IN ('active', 'paid_off') OR (amount_cents IS NOT NULL AND apr_bps IS NOT NULL AND term_months IS NOT NULL
    AND disbursement_transfer_id IS NOT NULL AND disbursed_on IS NOT NULL AND total_of_payments_cents IS NOT NULL)),
  CHECK ((status = 'paid_off') = (paid_off_at IS NOT NULL))
);
-- One open application per customer: a second at the same moment is refused here.
CREATE UNIQUE INDEX loans_one_open_application ON loans (customer_id) WHERE status = 'submitted';
CREATE INDEX loans_customer ON loans (customer_id, created_at DESC);
CREATE INDEX loans_queue ON loans (status, created_at, id);

-- The schedule. Rows not yet paid are replaced when an early repayment re-amortises the rest.
CREATE TABLE loan_instalments (
  loan_id uuid NOT NULL REFERENCES loans (id),
  number integer NOT NULL CHECK (number >= 1),
  due_date date NOT NULL,
  payment_cents bigint NOT NULL CHECK (payment_cents >= 0),
  principal_cents bigint NOT NULL CHECK (principal_cents >= 0),
  interest_cents bigint NOT NULL CHECK (interest_cents >= 0),
  balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
  status text NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'paid', 'late')),
  -- The repayment that paid it (a payments row and ledger transfer).
  repayment_id uuid,
  paid_at timestamptz,
  -- The last day the customer was told this instalment is late: at most one notice a day.
  late_notified_on date,
  PRIMARY KEY (loan_id, number),
  CHECK (payment_cents = principal_cents + interest_cents),
  CHECK ((status = 'paid') = (repayment_id IS NOT NULL))
);
-- The daily job reads what is due by date.
CREATE INDEX loan_instalments_unpaid ON loan_instalments (due_date) WHERE status <> 'paid';

-- Every repayment: an instalment taken by the daily job or an early repayment. The id is the
-- ledger transfer checking -> loans receivable (and the payments row); an instalment's interest is
-- booked by a linked transfer loans receivable -> interest income, `interest_transfer_id`.
CREATE TABLE loan_repayments (
  id uuid PRIMARY KEY,
  loan_id uuid NOT NULL REFERENCES loans (id),
  kind text NOT NULL CHECK (kind IN ('instalment', 'early')),
  instalment_number integer,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  principal_cents bigint NOT NULL CHECK (principal_cents >= 0),
  interest_cents bigint NOT NULL CHECK (interest_cents >= 0),
  interest_transfer_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (amount_cents = principal_cents + interest_cents),
  CHECK ((kind = 'instalment') = (instalment_number IS NOT NULL)),
  CHECK ((interest_cents > 0) = (interest_transfer_id IS NOT NULL))
);
CREATE INDEX loan_repayments_loan ON loan_repayments (loan_id, created_at);
