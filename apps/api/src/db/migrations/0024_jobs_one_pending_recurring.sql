-- A recurring kind (sweeps, settlements) has at most one run queued or running, even when several
-- job runners (workers, machines) enqueue it at the same moment (decision 043): the second insert
-- meets this index and does nothing. Jobs enqueued one by one are not marked and not limited.
ALTER TABLE jobs ADD COLUMN recurring boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX jobs_one_pending_recurring ON jobs (kind) WHERE recurring AND status IN ('queued', 'running');
