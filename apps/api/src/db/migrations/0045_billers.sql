-- Issue 33 item 1 (docs/decisions/074): bill pay's directory of billers, one of the twelve tiles'
-- categories each. A customer's account number at a biller must match account_number_pattern (a
-- JavaScript regular expression, matched against the whole value); account_number_example matches
-- it and is shown when a number does not. The bank pays a biller by an ACH credit to its routing
-- and account number, or (sandbox only) through the rail simulator, which has neither.
CREATE TABLE billers (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  category text NOT NULL CHECK (
    category IN ('electricity', 'water', 'gas', 'food', 'airfare', 'cable', 'internet', 'hotel', 'train', 'bus', 'movie', 'other')
  ),
  account_number_pattern text NOT NULL,
  account_number_example text NOT NULL,
  payment_method text NOT NULL CHECK (payment_method IN ('ach', 'simulator')),
  routing_number text CHECK (routing_number ~ '^[0-9]{9}$'),
  account_number text CHECK (account_number ~ '^[0-9]{4,17}$'),
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (
    (payment_method = 'ach' AND routing_number IS NOT NULL AND account_number IS NOT NULL)
    OR (payment_method = 'simulator' AND routing_number IS NULL AND account_number IS NULL)
  )
);
-- A tile's list: its billers by name.
CREATE INDEX billers_category_name ON billers (category, name);
