-- Who gave each staff member back-office access (issue 30, docs/decisions/050-independent-four-eyes.md).
-- Whoever created a member, enabled them again, changed their role or reset their second factor
-- could know their credentials or made their account able to act, so four eyes needs two
-- approvers that no chain of these grants links (modules/payments/staff-repository.ts reads it).
-- One row per grant, never updated: a later grant by someone else does not undo an earlier link.

CREATE TABLE staff_access_grants (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  staff_id uuid NOT NULL REFERENCES staff (id),
  -- The staff member who granted it; null when no staff member did (the operator's create-staff,
  -- the sandbox's bootstrap admin).
  granted_by uuid REFERENCES staff (id),
  kind text NOT NULL CHECK (kind IN ('created', 'enabled', 'role_changed', 'second_factor_reset')),
  granted_at timestamptz NOT NULL DEFAULT now(),
  -- Nobody changes their own access (modules/staff/service.ts refuses it first).
  CHECK (granted_by IS NULL OR granted_by <> staff_id)
);
-- The four-eyes check walks from a member up to whoever granted them access.
CREATE INDEX staff_access_grants_staff ON staff_access_grants (staff_id, granted_by);

-- Every member was created once: by the staff member staff.created_by names, or by the operator.
INSERT INTO staff_access_grants (staff_id, granted_by, kind, granted_at)
SELECT id, created_by, 'created', created_at FROM staff ORDER BY created_at, id;

-- The grants made before this table existed are in the hash-chained audit log, the one record of
-- who enabled, changed the role of or reset whom; without them an old link would be forgotten.
INSERT INTO staff_access_grants (staff_id, granted_by, kind, granted_at)
SELECT target.id, granter.id,
       CASE entry.action WHEN 'staff.enable' THEN 'enabled' WHEN 'staff.role_change' THEN 'role_changed' ELSE 'second_factor_reset' END,
       entry.occurred_at
  FROM audit_log entry
  JOIN staff target ON target.id::text = entry.subject
  JOIN staff granter ON granter.id::text = entry.actor_id
 WHERE entry.actor_type = 'staff' AND entry.outcome = 'success'
   AND entry.action IN ('staff.enable', 'staff.role_change', 'staff.reset_second_factor')
   AND granter.id <> target.id
 ORDER BY entry.chain_seq;
