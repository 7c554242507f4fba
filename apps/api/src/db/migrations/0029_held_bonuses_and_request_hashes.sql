-- Issue 30, items 8 and 10 (docs/decisions/051-second-probe-lows.md).

-- Item 10: a link's Idempotency-Key answers the body it came with only; the same key with another
-- body is refused, as a payment's is. Links made before this have no hash and answer as before.
ALTER TABLE funding_sources ADD COLUMN request_hash bytea CHECK (length(request_hash) = 32);
ALTER TABLE funding_sources ADD CONSTRAINT funding_sources_key_has_hash CHECK (request_hash IS NULL OR idempotency_key IS NOT NULL);

-- Item 8: a referral bonus is held for staff when the referred customer shares a verified phone,
-- an ID number or a browser with another customer (the referrer or anyone else).
-- The ID number as a keyed hash of its letters and digits (modules/onboarding/service.ts), so two
-- reviews with the same number are found without decrypting any. Reviews made before this, and the
-- ops CLI's customers (who have no real number), have none and match nothing.
ALTER TABLE identity_reviews ADD COLUMN id_number_hash bytea CHECK (length(id_number_hash) = 32);
CREATE INDEX identity_reviews_id_number_hash ON identity_reviews (id_number_hash) WHERE id_number_hash IS NOT NULL;
CREATE INDEX customers_verified_phone ON customers (phone_e164) WHERE phone_verified_at IS NOT NULL;
CREATE INDEX known_devices_device ON known_devices (device_hash);

-- held: waiting for staff, never paid automatically; refused: staff said no. A held bonus that staff
-- pay goes back to pending and is paid as any other (and stays pending while the referrer has no
-- checking account). held_because keeps what was shared, decided_* who decided, why and when.
ALTER TABLE referrals DROP CONSTRAINT referrals_status_check;
ALTER TABLE referrals ADD CONSTRAINT referrals_status_check CHECK (status IN ('pending', 'held', 'paid', 'refused'));
ALTER TABLE referrals ADD COLUMN held_because text[] CHECK (cardinality(held_because) > 0 AND held_because <@ ARRAY['phone', 'id_number', 'device']);
ALTER TABLE referrals ADD COLUMN decided_by uuid REFERENCES staff (id);
ALTER TABLE referrals ADD COLUMN decision_reason text CHECK (length(decision_reason) BETWEEN 3 AND 500);
ALTER TABLE referrals ADD COLUMN decided_at timestamptz;
ALTER TABLE referrals ADD CONSTRAINT referrals_held_says_why CHECK (status NOT IN ('held', 'refused') OR held_because IS NOT NULL);
ALTER TABLE referrals ADD CONSTRAINT referrals_decision_whole CHECK (
  (decided_by IS NULL) = (decided_at IS NULL) AND (decided_at IS NULL) = (decision_reason IS NULL) AND (decided_at IS NULL OR held_because IS NOT NULL)
);
ALTER TABLE referrals ADD CONSTRAINT referrals_held_undecided CHECK ((status = 'held') = (held_because IS NOT NULL AND decided_at IS NULL));
