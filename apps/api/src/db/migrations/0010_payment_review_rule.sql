-- A payment held for review (docs/product.md D1) names the rule that held it in a column of its own,
-- instead of a key inside details: the payment path, the ops list and any report read it alike.
-- Null for a payment no rule held. The payments of before move their rule over and out of details.
ALTER TABLE payments ADD COLUMN review_rule text CHECK (review_rule IS NULL OR length(review_rule) > 0);
UPDATE payments SET review_rule = details->>'reviewRule', details = details - 'reviewRule' WHERE details ? 'reviewRule';
