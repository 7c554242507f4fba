import { useState } from 'react';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useStaffProducts } from './products-api.ts';
import { ProductTermsTable } from './product-terms-table.tsx';
import { TermsFormSection } from './terms-form.tsx';
import './products.css';

/**
 * `/ops/products` (`products.edit`, administrators): each product's terms, past, in force and
 * scheduled, and a form to schedule new ones from a date after the bank's date (issue 32 item 1).
 */
export default function ProductsPage() {
  const products = useStaffProducts();
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const data = products.data;
  const product = data?.items.find((item) => item.id === editing);

  return (
    <section aria-labelledby="products-title" className="ops-page products-page">
      <h1 id="products-title">Products</h1>
      <p>
        The rates and fees of each account the bank sells, as the public pages, new accounts and end of day use them. A change takes effect on a date after the
        bank&rsquo;s date and never rewrites the past; a change scheduled again for the same date replaces the first until then.
      </p>
      {data ? <p>Bank date: {data.bankDate}</p> : null}
      {done ? (
        <Notice tone="success" role="status">
          {done}
        </Notice>
      ) : null}
      {products.isPending ? <LoadingLine>Loading the products…</LoadingLine> : null}
      {products.isError ? <LoadFailed title="The products could not be loaded" query={products} /> : null}
      {data && product ? (
        <TermsFormSection
          key={product.id}
          product={product}
          bankDate={data.bankDate}
          onCancel={() => setEditing(null)}
          onDone={(message) => {
            setEditing(null);
            setDone(message);
          }}
        />
      ) : null}
      {data?.items.map((item) => (
        <ProductTermsTable
          key={item.id}
          product={item}
          editing={editing !== null}
          onSchedule={() => {
            setDone(null);
            setEditing(item.id);
          }}
        />
      ))}
    </section>
  );
}
