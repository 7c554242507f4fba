import { CalendarPlus } from 'lucide-react';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { ProductTerms, StaffProduct } from '@strongroom/contracts/products.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';

/** A rate or an APY in basis points as a percentage with two decimals: 151 -> "1.51%". */
export function percentOfBps(bps: number): string {
  return `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;
}

const stateWords: Record<ProductTerms['state'], string> = { past: 'Past', current: 'In force', scheduled: 'Scheduled' };

const columns: readonly TableColumn<ProductTerms>[] = [
  { key: 'from', header: 'From', cell: (row) => row.effectiveFrom },
  { key: 'state', header: 'State', cell: (row) => <span className={`terms-state terms-state--${row.state}`}>{stateWords[row.state]}</span> },
  { key: 'fee', header: 'Monthly fee', numeric: true, cell: (row) => formatMoney(row.monthlyFeeCents) },
  {
    key: 'waiver',
    header: 'Fee waived with',
    cell: (row) =>
      [
        row.waiverMinDailyBalanceCents === null ? null : `${formatMoney(row.waiverMinDailyBalanceCents)} minimum daily balance`,
        row.waiverMonthlyDepositsCents === null ? null : `${formatMoney(row.waiverMonthlyDepositsCents)} deposits in the month`,
      ]
        .filter(Boolean)
        .join(' or ') || '—',
  },
  { key: 'opening', header: 'Opening deposit', numeric: true, cell: (row) => formatMoney(row.openingDepositCents) },
  {
    key: 'rates',
    header: 'Rate (APY) by balance',
    cell: (row) => (
      <ul className="terms-tiers">
        {row.tiers.map((tier) => (
          <li key={tier.fromCents}>
            from {formatMoney(tier.fromCents)}: {percentOfBps(tier.rateBps)} ({percentOfBps(tier.apyBps)} APY)
          </li>
        ))}
      </ul>
    ),
  },
  { key: 'reason', header: 'Reason', cell: (row) => row.reason },
];

/** One product's terms, oldest first, and the way to schedule a change. */
export function ProductTermsTable({ product, onSchedule, editing }: { product: StaffProduct; onSchedule: () => void; editing: boolean }) {
  return (
    <section aria-labelledby={`product-${product.code}`} className="product-terms">
      <div className="product-terms__heading">
        <h2 id={`product-${product.code}`}>{product.name}</h2>
        <Button variant="secondary" size="sm" onClick={onSchedule} disabled={editing} aria-label={`Schedule a change to ${product.name}`}>
          <CalendarPlus aria-hidden="true" size={16} />
          Schedule a change
        </Button>
      </div>
      <Table caption={`${product.name}: terms`} captionHidden columns={columns} rows={product.terms} rowKey={(row) => row.id} empty="No terms." />
    </section>
  );
}
