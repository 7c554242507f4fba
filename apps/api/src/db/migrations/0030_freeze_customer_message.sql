-- What a frozen customer is told, apart from the reason staff gave (decision 053). The reason
-- (`customer_freezes.reason`) stays for staff and the audit log; the banner, `GET /me` and the
-- notification say `customer_message` only, which staff choose from a short list and may edit.
--
-- Freezes made before this had one text, shown word for word to the customer: they get the neutral
-- message (packages/contracts/src/staff-customers.ts, `neutralFreezeCustomerMessage`, the same
-- words; a test compares the two). The column keeps it as its default, so a row written without a
-- message (by code that forgets one) says the neutral words, never the reason.
ALTER TABLE customer_freezes ADD COLUMN customer_message text NOT NULL
  DEFAULT 'Some features of your account are paused for now. We''ll be in touch with you about it.'
  CHECK (length(customer_message) BETWEEN 10 AND 300);

-- A customer's own freeze ("This wasn't me") says what the customer themselves reported, as its
-- banner did before: that text is theirs, not staff's.
UPDATE customer_freezes SET customer_message = left(reason, 300) WHERE frozen_by_customer AND length(reason) >= 10;

-- The notification of a staff freeze ended with "Reason: " and the staff member's words. Every such
-- notification, of a freeze open or lifted, now ends with the neutral message instead.
UPDATE notifications
   SET text = 'We have frozen your account: you can sign in and see everything, but no money can move until the freeze is lifted. '
              || 'Some features of your account are paused for now. We''ll be in touch with you about it.'
 WHERE kind = 'account_frozen'
   AND starts_with(text, 'We have frozen your account: you can sign in and see everything, but no money can move until we lift the freeze. Reason: ');
