-- Messages from the public contact form (docs/product.md D14): kept, shown to staff, acknowledged.
CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  phone text NOT NULL CHECK (length(phone) BETWEEN 1 AND 32),
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 150),
  message text NOT NULL CHECK (length(message) BETWEEN 1 AND 5000),
  ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  answered_at timestamptz,
  answered_by uuid
);
CREATE INDEX contact_messages_unanswered ON contact_messages (created_at) WHERE answered_at IS NULL;
