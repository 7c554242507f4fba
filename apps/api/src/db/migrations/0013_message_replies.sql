-- Staff replies to messages (issue 12, messages queue). Today a reply answers a contact-form
-- message; customers' secure messages arrive later and add their own reference column, widening
-- the source check, so one table holds every reply a staff member wrote.
CREATE TABLE message_replies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  source text NOT NULL CHECK (source IN ('contact_form')),
  contact_message_id uuid REFERENCES contact_messages (id),
  staff_id uuid NOT NULL REFERENCES staff (id),
  text text NOT NULL CHECK (length(text) BETWEEN 1 AND 5000),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((source = 'contact_form') = (contact_message_id IS NOT NULL))
);
CREATE INDEX message_replies_contact_message ON message_replies (contact_message_id, created_at);
-- The answered list, newest answer first.
CREATE INDEX contact_messages_answered ON contact_messages (answered_at DESC, id) WHERE answered_at IS NOT NULL;
