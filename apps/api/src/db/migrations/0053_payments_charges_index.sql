-- Issue 37 (decision 080): the accounts page sums each customer's interest, fees and fee
-- refunds of the year (modules/accounts/earnings-repository.ts). Among a customer's thousands of
-- transfers these are a few rows a month; without an index of their own PostgreSQL read the whole
-- payments table for every batch of accounts pages (the bench's reads spent a quarter of their
-- database time there). A partial index holds only them.
CREATE INDEX payments_customer_charges ON payments (customer_id, created_at)
  WHERE kind IN ('interest', 'fee', 'fee_refund') AND status = 'completed';
