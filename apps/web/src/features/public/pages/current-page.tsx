import { PageMeta } from '../../../components/page-meta.tsx';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { productOf, useProducts } from '../api/products.ts';
import { OfferCard, OfferComparison } from '../components/offer-card.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { interestLines, priceLoading, priceUnavailable } from '../components/product-terms.ts';
import { RatesStatus } from '../components/rates-status.tsx';
import { checkingAccounts } from '../offers.ts';
import '../public-pages.css';

/** `/current`: the checking tiers, their words from offers.ts and their fees, waivers and rates from the catalogue (GET /products). */
export function CurrentPage() {
  const products = useProducts();
  return (
    <>
      <PageMeta
        title="Current accounts"
        description="Three checking accounts for everyday banking: Easy Checking, Gold Checking and Platinum Checking, each with one clear monthly maintenance fee and a way to have it waived."
      />
      <PageHero eyebrow="Personal · Current" title="Current accounts">
        <p>
          A checking account for the money you use every day: your salary in, your bills and card payments out. Pick the tier that fits; each has one clear
          monthly maintenance fee.
        </p>
        <RatesStatus products={products} />
      </PageHero>
      <OfferComparison
        label="Checking accounts compared"
        finePrint={
          <p className="fine-print">
            The monthly maintenance fee is taken from the account at the end of each month and shows in your history like any other payment. There are no other
            account fees. Fees and rates can change, and we tell you before they do.
          </p>
        }
      >
        {checkingAccounts.map((account) => {
          const product = productOf(products, account.product);
          const price = product ? formatMoney(product.monthlyFeeCents) : products.status === 'error' ? priceUnavailable : priceLoading;
          const terms = product ? [product.waiverText, ...interestLines(product)].filter((line) => line !== '') : [];
          return (
            <OfferCard
              key={account.name}
              name={account.name}
              price={price}
              priceUnit="monthly maintenance fee"
              summary={account.summary}
              points={[...account.features, ...terms]}
              actionTo={`/signup?product=${account.product}`}
              actionLabel="Open an account"
            />
          );
        })}
      </OfferComparison>
    </>
  );
}
