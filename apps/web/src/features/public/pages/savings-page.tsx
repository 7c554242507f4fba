import { PageMeta } from '../../../components/page-meta.tsx';
import { formatPrice } from '../../../lib/money.ts';
import { productOf, useProducts } from '../api/products.ts';
import { OfferCard, OfferComparison } from '../components/offer-card.tsx';
import { PageHero } from '../components/page-hero.tsx';
import { interestLines, priceLoading, priceUnavailable } from '../components/product-terms.ts';
import { RatesStatus } from '../components/rates-status.tsx';
import { savingsAccounts, savingsBenefits } from '../offers.ts';
import '../public-pages.css';

/** `/savings`: the savings accounts, their words from offers.ts and their opening deposits, rates and APYs from the catalogue (GET /products). */
export function SavingsPage() {
  const products = useProducts();
  return (
    <>
      <PageMeta
        title="Savings accounts"
        description="Compare our three savings accounts: Standard Savings, Platinum Select Money Market and Package Money Market, with their opening deposits, interest rates and APYs."
      />
      <PageHero eyebrow="Personal · Savings" title="Savings accounts">
        <p>
          Put money aside and watch it grow. Each account comes with premium support, transfers to US banks and competitive interest; they differ in the opening
          deposit, the rate and the cards included.
        </p>
        <RatesStatus products={products} />
      </PageHero>
      <OfferComparison
        label="Savings accounts compared"
        finePrint={
          <p className="fine-print">
            The opening deposit is the least you pay in when the account opens; after that the money is yours to withdraw. The savings account we open when you
            sign up starts empty, as you have no money with us yet: its opening deposit is simply the first money you move in, and the minimum applies to
            savings accounts you open later. Interest is worked out every day on the balance at the end of the day and paid at the end of each month. APY is the
            annual percentage yield. Interest rates can change, and we tell you before they do.
          </p>
        }
      >
        {savingsAccounts.map((account) => {
          const product = productOf(products, account.product);
          const price = product ? formatPrice(product.openingDepositCents) : products.status === 'error' ? priceUnavailable : priceLoading;
          return (
            <OfferCard
              key={account.name}
              name={account.name}
              price={price}
              priceUnit="opening deposit"
              summary={account.summary}
              points={[...(product ? interestLines(product) : []), account.cards, ...savingsBenefits]}
              actionTo={`/signup?product=${account.product}`}
              actionLabel="Open an account"
            />
          );
        })}
      </OfferComparison>
    </>
  );
}
