-- A payment's answer is stored and read by its id (platform/idempotency.ts); without this index each
-- store scanned every key ever claimed, the costliest statement of a payment (decision 044).
CREATE UNIQUE INDEX idempotency_keys_payment ON idempotency_keys (payment_id);
