-- Issue 39, item 11 (docs/decisions/054-figures-the-bank-sets-and-the-operators-first-hour.md): the
-- account a customer chose on a public page ("Open an account") is carried into sign-up and kept
-- until their accounts open, which then open as it. The slugs are packages/contracts/src/products.ts.
ALTER TABLE customers ADD COLUMN chosen_product text CHECK (chosen_product IN (
  'easy-checking', 'gold-checking', 'platinum-checking',
  'standard-savings', 'platinum-select-money-market-savings', 'package-money-market-savings'
));
