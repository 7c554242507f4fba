-- Issue 35 (docs/books.md, "The chart of accounts"): customer deposits are booked by product, and a
-- customer may move an account to another product of its kind (issue 32). The books need the
-- product each account was of on any day: on a closed day, as it was closed; from a change on, the
-- account's whole balance belongs to the new product's line (a reclassification on the open day).
CREATE TABLE customer_account_products (
  account_id uuid NOT NULL REFERENCES customer_accounts (id),
  product_id uuid NOT NULL REFERENCES deposit_products (id),
  -- The first business date this product is in force (the account's first row: the beginning).
  from_day date NOT NULL,
  PRIMARY KEY (account_id, from_day)
);

INSERT INTO customer_account_products (account_id, product_id, from_day)
  SELECT id, product_id, DATE '0001-01-01' FROM customer_accounts;

-- Every writer records the change: a new account is of its product from the beginning; a change
-- is in force from the open day (the bank's calendar day now, or the day after the last closed day
-- when that is later), so no closed day's books change.
CREATE FUNCTION customer_account_products_record() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
  closed date;
  open_day date;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_account_products (account_id, product_id, from_day) VALUES (NEW.id, NEW.product_id, DATE '0001-01-01');
    RETURN NEW;
  END IF;
  IF NEW.product_id IS NOT DISTINCT FROM OLD.product_id THEN
    RETURN NEW;
  END IF;
  SELECT time_zone, closed_through INTO zone, closed FROM books_state;
  open_day := (now() AT TIME ZONE zone)::date;
  IF closed IS NOT NULL AND open_day <= closed THEN
    open_day := closed + 1;
  END IF;
  INSERT INTO customer_account_products (account_id, product_id, from_day) VALUES (NEW.id, NEW.product_id, open_day)
    ON CONFLICT (account_id, from_day) DO UPDATE SET product_id = EXCLUDED.product_id;
  RETURN NEW;
END;
$$;
CREATE TRIGGER customer_account_products_record AFTER INSERT OR UPDATE OF product_id ON customer_accounts
  FOR EACH ROW EXECUTE FUNCTION customer_account_products_record();
-- A report looks for the accounts whose product changed between a close and its day: only changes are indexed.
CREATE INDEX customer_account_products_changes ON customer_account_products (from_day) WHERE from_day > DATE '0001-01-01';
