-- Secure messages (issue 15, item 4): a signed-in customer's threads with support. The customer's
-- own words (the first message and each follow-up) are posts; staff replies join the one table of
-- replies that migration 0013 planned for them, with their own reference column and `source`.
CREATE TABLE secure_message_threads (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 150),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The last post or reply, either side: the customer's list sorts by it.
  last_activity_at timestamptz NOT NULL DEFAULT now(),
  -- Null while the customer waits for an answer (a follow-up clears it again).
  answered_at timestamptz,
  -- Since when the customer has waited: the first message unanswered (the staff queue's order).
  waiting_since timestamptz NOT NULL DEFAULT now(),
  answered_by uuid REFERENCES staff (id),
  -- The audit row a "This wasn't me" report attached (null for an ordinary message).
  reported_event_id bigint
);
CREATE INDEX secure_message_threads_customer ON secure_message_threads (customer_id, last_activity_at DESC, id);
-- The staff queue: waiting threads oldest first, answered ones newest answer first.
CREATE INDEX secure_message_threads_waiting ON secure_message_threads (waiting_since, id) WHERE answered_at IS NULL;
CREATE INDEX secure_message_threads_answered ON secure_message_threads (answered_at DESC, id) WHERE answered_at IS NOT NULL;

CREATE TABLE secure_message_posts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  thread_id uuid NOT NULL REFERENCES secure_message_threads (id),
  text text NOT NULL CHECK (length(text) BETWEEN 1 AND 5000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX secure_message_posts_thread ON secure_message_posts (thread_id, created_at, id);

ALTER TABLE message_replies ADD COLUMN secure_message_thread_id uuid REFERENCES secure_message_threads (id);
ALTER TABLE message_replies DROP CONSTRAINT message_replies_source_check;
ALTER TABLE message_replies DROP CONSTRAINT message_replies_check;
ALTER TABLE message_replies ADD CONSTRAINT message_replies_source_check CHECK (source IN ('contact_form', 'secure_message'));
ALTER TABLE message_replies ADD CONSTRAINT message_replies_reference_check CHECK (
  ((source = 'contact_form') = (contact_message_id IS NOT NULL))
  AND ((source = 'secure_message') = (secure_message_thread_id IS NOT NULL))
);
CREATE INDEX message_replies_secure_thread ON message_replies (secure_message_thread_id, created_at) WHERE secure_message_thread_id IS NOT NULL;

-- "This wasn't me" (issue 15, item 2): the customer freezes their own money movement. The freeze
-- is the same row a staff freeze is (lifted by staff in the console), marked as the customer's.
ALTER TABLE customer_freezes ALTER COLUMN frozen_by DROP NOT NULL;
ALTER TABLE customer_freezes ADD COLUMN frozen_by_customer boolean NOT NULL DEFAULT false;
ALTER TABLE customer_freezes ADD CONSTRAINT customer_freezes_who CHECK ((frozen_by IS NULL) = frozen_by_customer);

-- One report per event: a double click or a second try finds the first report.
CREATE TABLE security_event_reports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL REFERENCES customers (id),
  audit_id bigint NOT NULL,
  thread_id uuid NOT NULL REFERENCES secure_message_threads (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (customer_id, audit_id)
);
