-- Issue 33 items 3-5 (docs/bill-pay.md): payments later or repeating. A schedule holds one
-- POST /transfers body and a recurrence; its occurrences are computed from the recurrence
-- (modules/scheduled-payments/occurrences.ts) and written here only once something happened to
-- them: their cut-off passed (they are being paid), they were paid, skipped, failed or cancelled.
CREATE TABLE scheduled_payments (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  status text NOT NULL CHECK (status IN ('active', 'completed', 'cancelled')),
  -- The POST /transfers body each occurrence sends (kind own, internal, external or bill).
  payment jsonb NOT NULL,
  from_account_id uuid NOT NULL REFERENCES customer_accounts (id),
  kind text NOT NULL CHECK (kind IN ('own', 'internal', 'external', 'bill')),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- Whom it pays (the biller, the payee, the account), for the notifications.
  payee_name text NOT NULL,
  -- What each payment's history line says, e.g. "Bill payment to City Water, account ending 4821".
  description text NOT NULL,
  start_date date NOT NULL,
  frequency text NOT NULL CHECK (frequency IN ('once', 'weekly', 'biweekly', 'monthly')),
  -- Monthly only: a day 1-31, or the month's last business day; neither is the start date's day.
  day_of_month smallint CHECK (day_of_month BETWEEN 1 AND 31),
  last_business_day boolean NOT NULL DEFAULT false,
  end_date date,
  count integer CHECK (count BETWEEN 1 AND 520),
  -- No occurrence is dated before it: the earliest payment date when the schedule was made or edited.
  floor_date date NOT NULL,
  -- The bank's date when the schedule was made or last edited: due dates before it were the
  -- earlier version's (their rows, written before the edit, say what became of them).
  applies_from date NOT NULL,
  -- The date of the next occurrence not written to scheduled_payment_occurrences yet; null once
  -- every occurrence of the series is written (or the series was cancelled).
  next_date date,
  idempotency_key text NOT NULL,
  request_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  cancelled_at timestamptz,
  UNIQUE (customer_id, idempotency_key),
  CHECK (frequency = 'monthly' OR (day_of_month IS NULL AND NOT last_business_day)),
  CHECK (NOT last_business_day OR day_of_month IS NULL),
  CHECK (end_date IS NULL OR count IS NULL),
  CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))
);
-- A customer's schedules, newest first.
CREATE INDEX scheduled_payments_customer ON scheduled_payments (customer_id, created_at DESC);
-- The job's "due now": active schedules whose next occurrence is dated up to a day.
CREATE INDEX scheduled_payments_due ON scheduled_payments (next_date) WHERE status = 'active' AND next_date IS NOT NULL;

CREATE TABLE scheduled_payment_occurrences (
  schedule_id uuid NOT NULL REFERENCES scheduled_payments (id),
  -- The date the recurrence names; `date` is the business day it is paid.
  due_date date NOT NULL,
  date date NOT NULL,
  status text NOT NULL CHECK (status IN ('scheduled', 'paid', 'skipped', 'failed', 'cancelled')),
  -- The body this occurrence is paid with: the schedule's when its cut-off passed, so that an edit
  -- made after it changes only the occurrences still ahead.
  payment jsonb NOT NULL,
  -- Payments tried: a refusal for want of money is tried once more, on retry_date.
  attempts smallint NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 2),
  retry_date date,
  transfer_id uuid REFERENCES payments (id),
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (schedule_id, due_date),
  CHECK ((status = 'paid') = (transfer_id IS NOT NULL)),
  CHECK (retry_date IS NULL OR retry_date > date)
);
-- The job's "due now": occurrences being paid (their cut-off passed) and retries, by the day they go.
CREATE INDEX scheduled_payment_occurrences_due ON scheduled_payment_occurrences ((coalesce(retry_date, date))) WHERE status = 'scheduled';
