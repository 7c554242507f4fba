-- Issue 39, item 1 (docs/decisions/058-loan-offers-before-money.md): an approval is an offer. The loan
-- waits `offered` with its terms, schedule and Truth in Lending box until the customer accepts (then
-- it is paid out, `active`) or declines (`declined`); an offer not accepted in the window lapses
-- (`expired`). No money moves before acceptance.
ALTER TABLE loans DROP CONSTRAINT loans_status_check;
ALTER TABLE loans ADD CONSTRAINT loans_status_check
  CHECK (status IN ('submitted', 'rejected', 'offered', 'active', 'declined', 'expired', 'paid_off'));

-- When the offer lapses, and when the customer answered it (accepted or declined).
ALTER TABLE loans ADD COLUMN offer_expires_at timestamptz;
ALTER TABLE loans ADD COLUMN answered_at timestamptz;
ALTER TABLE loans ADD CONSTRAINT loans_offer_terms CHECK (
  status NOT IN ('offered', 'declined', 'expired')
  OR (amount_cents IS NOT NULL AND apr_bps IS NOT NULL AND term_months IS NOT NULL AND total_of_payments_cents IS NOT NULL
      AND offer_expires_at IS NOT NULL));
ALTER TABLE loans ADD CONSTRAINT loans_answered CHECK (status NOT IN ('declined') OR answered_at IS NOT NULL);
-- An offer is money the bank promised: the lapse sweep reads them by expiry.
CREATE INDEX loans_open_offers ON loans (offer_expires_at) WHERE status = 'offered';
