-- Two messages sent within the same clock tick (PGlite's clock is coarse) must still list newest
-- first, so the outbox is ordered by an insertion sequence, not by its timestamp.
ALTER TABLE outbox_messages ADD COLUMN sequence bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX outbox_messages_to_created;
CREATE INDEX outbox_messages_to_sequence ON outbox_messages (lower(to_address), sequence DESC);
