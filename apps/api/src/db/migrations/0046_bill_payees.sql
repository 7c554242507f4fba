-- Issue 33 item 2 (docs/bill-pay.md): a customer's bill payees, a biller of the directory (0045)
-- and the customer's account number there, under a nickname. The number is kept encrypted, as
-- funding sources keep theirs (platform/crypto.ts), with its last four characters for display and
-- a keyed hash that finds the same biller and number saved twice. Deleting one is a soft delete:
-- the payments made to it still name it.
CREATE TABLE bill_payees (
  id uuid PRIMARY KEY,
  customer_id uuid NOT NULL REFERENCES customers (id),
  biller_id uuid NOT NULL REFERENCES billers (id),
  nickname text NOT NULL CHECK (length(nickname) BETWEEN 1 AND 40),
  account_number_encrypted bytea NOT NULL,
  account_key bytea NOT NULL,
  account_ending text NOT NULL CHECK (length(account_ending) BETWEEN 1 AND 4),
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
-- One payee per biller and account number for a customer; deleting and adding again makes a new row.
CREATE UNIQUE INDEX bill_payees_one_per_account ON bill_payees (customer_id, biller_id, account_key) WHERE deleted_at IS NULL;
-- A customer's list, by nickname.
CREATE INDEX bill_payees_customer ON bill_payees (customer_id, nickname) WHERE deleted_at IS NULL;

-- A bill payment is a payment of its own kind (modules/money/kinds.ts): from the customer's account
-- to ACH settlement, pending at the ACH rail; its details name the payee (billPayeeId) and the
-- last four characters of the customer's account at the biller (accountEnding).
ALTER TABLE payments DROP CONSTRAINT payments_kind_check;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check
  CHECK (kind IN ('own', 'internal', 'external', 'card', 'bill', 'deposit', 'withdrawal', 'funding', 'loan_disbursement', 'loan_repayment',
                  'referral_bonus', 'interest', 'fee', 'fee_refund'));

-- A bill payment's line reads "Bill payment to City Water, account ending 4821" (contracts'
-- history-line.ts) when it has no memo, and names the biller that way beside one. The search
-- text holds those words up to the account ending, whose four characters the index's arguments
-- do not carry (they are in the payment's details): a search for them finds the newest lines,
-- which the search reads whole, and no older ones. Otherwise as migration 0044.
CREATE OR REPLACE FUNCTION history_search_text(kind text, message text, counterparty_name text, counterparty_bank_name text, sender_name text)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE COST 1000
SET search_path = pg_catalog
AS $$
  SELECT translate(
    message || CASE
      WHEN kind = 'funding' THEN E'\nopening deposit'
      WHEN kind = 'referral_bonus' THEN E'\nreferral bonus'
      WHEN kind = 'interest' THEN E'\ninterest paid'
      WHEN kind = 'fee' THEN E'\nmonthly maintenance fee'
      WHEN kind = 'fee_refund' THEN E'\nfee refunded'
      WHEN kind = 'bill' THEN E'\nbill payment to ' || counterparty_name || ', account ending '
      ELSE E'\nfrom ' || coalesce(sender_name, counterparty_name) || E'\nto ' || counterparty_name || coalesce(', ' || counterparty_bank_name, '')
        || CASE kind WHEN 'own' THEN E'\nfrom your own account' WHEN 'card' THEN E'\ncredit card payment' ELSE '' END
    END,
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ' || U&'\0130\212A',
    'abcdefghijklmnopqrstuvwxyzik')
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_class WHERE relname = 'payments_search' AND relkind = 'i') THEN
    REINDEX INDEX payments_search;
  END IF;
END
$$;
ANALYZE payments;
