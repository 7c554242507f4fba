import { z } from 'zod';

/**
 * The deposit accounts the public pages offer (/current, /savings), by the slug an "Open an account"
 * button carries into sign-up (`/signup?product=gold-checking`, docs/decisions/054). A customer who
 * chose one has their checking or savings account opened as it; the other of the two opens as the
 * bank's first product of its kind. The names are the ones the public pages and the accounts show.
 */
export const depositProducts = [
  { slug: 'easy-checking', type: 'checking', name: 'Easy Checking' },
  { slug: 'gold-checking', type: 'checking', name: 'Gold Checking' },
  { slug: 'platinum-checking', type: 'checking', name: 'Platinum Checking' },
  { slug: 'standard-savings', type: 'savings', name: 'Standard Savings' },
  { slug: 'platinum-select-money-market-savings', type: 'savings', name: 'Platinum Select Money Market Savings' },
  { slug: 'package-money-market-savings', type: 'savings', name: 'Package Money Market Savings' },
] as const satisfies readonly { slug: string; type: 'checking' | 'savings'; name: string }[];

export type DepositProduct = (typeof depositProducts)[number];
export type DepositProductSlug = DepositProduct['slug'];

const slugs = depositProducts.map((product) => product.slug) as [DepositProductSlug, ...DepositProductSlug[]];

export const depositProductSlugSchema = z.enum(slugs, { error: 'choose one of the accounts on our Current accounts or Savings pages' });

export function depositProductOf(slug: string | null | undefined): DepositProduct | undefined {
  return depositProducts.find((product) => product.slug === slug);
}

/** The product each kind of account opens as when the customer chose none of that kind. */
export function defaultDepositProduct(type: 'checking' | 'savings'): DepositProduct {
  const product = depositProducts.find((candidate) => candidate.type === type);
  if (!product) throw new Error(`no deposit product of type ${type}`);
  return product;
}
