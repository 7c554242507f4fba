-- Issue 39, item 11 (docs/decisions/054-figures-the-bank-sets.md): the home page's counters are
-- figures the bank sets in its settings, or none. Each is {label, value, atLeast}; the API checks
-- their shape (packages/contracts/src/staff-settings.ts), the table that there are at most three.
ALTER TABLE bank_settings ADD COLUMN home_counters jsonb NOT NULL DEFAULT '[]'::jsonb
  CHECK (jsonb_typeof(home_counters) = 'array' AND jsonb_array_length(home_counters) <= 3);
