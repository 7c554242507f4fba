-- Issue 32 (docs/decisions/072-deposit-products-interest-and-fees.md): a day's end-of-day balances
-- are the ledger's posted counters less what the transfers dated at or after the next midnight
-- added. Without an index on the date, each accrued day (and each account's close) read the whole
-- ledger; with it, only the transfers since that midnight. Dates grow with the sequence, so the
-- index is appended to, like the sequence's own.
CREATE INDEX ledger_transfers_created_at ON ledger_transfers (created_at);
