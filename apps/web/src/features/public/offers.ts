/**
 * The bank's published offers (docs/product.md section 9 (the seed's section 2)): their marketing
 * words only. `product` is the slug "Open an account" carries into sign-up and the product's `code`
 * in the catalogue (packages/contracts/src/products.ts), where the prices, fees and rates live: the
 * pages read them from `GET /products` (issue 32 item 1), so what they say is what the bank does.
 */
export const savingsAccounts = [
  {
    name: 'Standard Savings Account',
    product: 'standard-savings',
    cards: '1 business Mastercard',
    summary: 'A simple place to build up savings, with a business Mastercard for when you need to spend.',
  },
  {
    name: 'Platinum Select Money Market Savings',
    product: 'platinum-select-money-market-savings',
    cards: '1 card',
    summary: 'Money-market savings for larger balances, with easy access when plans change.',
  },
  {
    name: 'Package Money Market Savings',
    product: 'package-money-market-savings',
    cards: '2 cards',
    summary: 'Our fullest savings package: two cards, so you and a partner can both reach the money.',
  },
] as const;

/** What every savings account includes. Payments go to US banks only for now: nothing here promises international ones (decision 060). */
export const savingsBenefits = ['Premium support', 'Transfers to US banks', 'Competitive interest'] as const;

export const checkingAccounts = [
  {
    name: 'Easy Checking',
    product: 'easy-checking',
    summary: 'Everything you need for everyday spending.',
    features: ['Debit card on Visa or Mastercard', 'Transfers to your own accounts and to other banks', 'Statements as PDF, CSV or OFX'],
  },
  {
    name: 'Gold Checking',
    product: 'gold-checking',
    summary: 'For people who bank a lot: more cards and more ways to pay.',
    features: ['Everything in Easy Checking', 'A second card for a family member', 'Saved payees for one-tap transfers'],
  },
  {
    name: 'Platinum Checking',
    product: 'platinum-checking',
    summary: 'Our premium current account with the most help when you need it.',
    features: ['Everything in Gold Checking', 'Premium support from a named team', 'Wire withdrawals to US banks'],
  },
] as const;

export const cardOffers = {
  go: { name: 'Go Card', annualFeeCents: 0 },
  connect: { name: 'Connect Card', annualFeeCents: 0 },
  reserve: { name: 'Reserve Signature Card', annualFeeCents: 6_000, introBonusCents: 30_000, introBillingCycles: 12 },
} as const;
