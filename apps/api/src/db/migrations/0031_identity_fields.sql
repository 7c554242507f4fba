-- What a US customer identification program needs (docs/decisions/055-customer-identification-fields.md):
-- the kind of ID beside its number, the date of birth, and the rest of a US address. The street stays
-- in `address` (now one or two lines) and `state` now holds a USPS code from the contracts' list.
-- Reviews sent before this have none of the new fields: all four are there, or none is.
ALTER TABLE identity_reviews
  ADD COLUMN id_type text CHECK (id_type IN ('ssn', 'drivers_license', 'passport')),
  ADD COLUMN date_of_birth date CHECK (date_of_birth >= DATE '1900-01-01'),
  ADD COLUMN city text CHECK (length(city) BETWEEN 1 AND 100),
  ADD COLUMN zip_code text CHECK (zip_code ~ '^[0-9]{5}(-[0-9]{4})?$'),
  ADD CONSTRAINT identity_reviews_identification_complete CHECK (
    (id_type IS NULL AND date_of_birth IS NULL AND city IS NULL AND zip_code IS NULL)
    OR (id_type IS NOT NULL AND date_of_birth IS NOT NULL AND city IS NOT NULL AND zip_code IS NOT NULL)
  );

-- No unique index on a verified phone: customers verified before decision 055 may share one, and
-- this migration must not fail on them. The onboarding service refuses a new sharer under a lock.
