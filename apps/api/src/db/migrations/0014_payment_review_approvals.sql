-- Four eyes on held payments (docs/product.md section 6): a release of FOUR_EYES_CENTS or more needs two
-- different staff members. Each approval of a release is a row; the key makes a staff member's
-- approval of one payment unique, so the same person can never count twice. A rejection clears a
-- first approval that waited (the rejection itself is in the payment and the audit log).
CREATE TABLE payment_review_approvals (
  payment_id uuid NOT NULL REFERENCES payments (id),
  staff_id uuid NOT NULL REFERENCES staff (id),
  reason text NOT NULL CHECK (length(reason) BETWEEN 3 AND 500),
  approved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (payment_id, staff_id)
);
