-- Issue 31, item 1 (docs/decisions/065-one-money-movement-primitive.md): the recovery of payments a
-- request left in 'creating' (payments/recovery.ts, run by every payments sweep) is removed. Since
-- decision 044 a payment's row, its ledger transfer and its answer commit in one transaction, so no
-- running request leaves one; only a payment written before 044 can still be 'creating'. This
-- finishes each such row once, as the ledger already decided it, and never moves money:
--   * its transfer was posted: 'completed';
--   * its transfer is pending: 'in_review' when a review rule held it, else 'pending' at its rail,
--     due now (the settlement sweep settles it, as it would have after the recovery);
--   * the ledger refused it for want of money (ledger_failed_transfers): 'failed' with that code;
--   * the ledger never saw it: 'failed', with the reason; no money moved (a failed payment is shown
--     nowhere, as a refused one is). The recovery would have sent it late; this does not.
-- A replay of the key of such a payment answers from the row (payments/service.ts: answerFromRow).
UPDATE payments p
   SET status = CASE
         WHEN t.flags & 2 = 0 THEN 'completed'
         WHEN p.review_rule IS NOT NULL THEN 'in_review'
         ELSE 'pending'
       END,
       settle_at = CASE WHEN t.flags & 2 <> 0 AND p.review_rule IS NULL AND p.rail IS NOT NULL THEN now() ELSE p.settle_at END,
       updated_at = now()
  FROM ledger_transfers t
 WHERE t.id = p.id AND p.status = 'creating';

UPDATE payments p
   SET status = 'failed', failure_code = f.result, updated_at = now()
  FROM ledger_failed_transfers f
 WHERE f.id = p.id AND p.status = 'creating';

UPDATE payments
   SET status = 'failed', status_reason = 'Interrupted before any money moved (finished by migration 0039)', updated_at = now()
 WHERE status = 'creating';
