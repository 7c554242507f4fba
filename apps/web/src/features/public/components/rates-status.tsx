import { RefreshCw } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { loadProducts, type ProductsState } from '../api/products.ts';

const calendarDate = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** A bank date (YYYY-MM-DD) as words, "November 29, 2026": a calendar day, not an instant, so read in UTC. */
export function formatBankDate(day: string): string {
  return calendarDate.format(new Date(`${day}T00:00:00Z`));
}

/** Above a page's offers: the catalogue loading, why it did not load (with "Try again"), or the date its rates and fees are of. */
export function RatesStatus({ products }: { products: ProductsState }) {
  if (products.status === 'loading') return <LoadingLine>Loading today&rsquo;s rates and fees…</LoadingLine>;
  if (products.status === 'error')
    return (
      <Notice tone="error" role="alert">
        <p>We could not load today&rsquo;s rates and fees: {products.error.message}</p>
        <Button variant="secondary" size="sm" onClick={() => void loadProducts()}>
          <RefreshCw aria-hidden="true" size={16} />
          Try again
        </Button>
      </Notice>
    );
  return (
    <p className="rates-as-of">
      Rates and fees as of <time dateTime={products.products.asOf}>{formatBankDate(products.products.asOf)}</time>
    </p>
  );
}
