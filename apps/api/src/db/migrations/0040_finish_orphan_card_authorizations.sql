-- Issue 31, item 1 (docs/decisions/069-every-movement-through-the-money-module.md): a card
-- authorisation's row, its ledger hold and a debit card's history line now commit in one
-- transaction, so the sweep that ended authorisations whose hold never reached the ledger (the
-- process stopped between the two, before this change) is removed. This ends each such row once,
-- as that sweep did: expired, silently. It held nothing, so no money moves and no line changes.
UPDATE card_authorizations a
   SET status = 'expired', resolved_at = now()
 WHERE a.status = 'pending'
   AND NOT EXISTS (SELECT 1 FROM ledger_transfers t WHERE t.id = a.id);
