import { formatMoney } from '@strongroom/contracts/money.ts';
import type { ProductTermsChange } from '@strongroom/contracts/products.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { percentOfBps } from './product-terms-table.tsx';

/** The last look before new terms are scheduled: what changes, from when, and that it applies to every account of the product. */
export function ConfirmTermsDialog(props: {
  productName: string;
  change: ProductTermsChange | null;
  busy: boolean;
  error: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { productName, change, busy, error, onConfirm, onClose } = props;
  return (
    <Dialog
      open={change !== null}
      onClose={onClose}
      dismissible={!busy}
      title={`Schedule new terms for ${productName}`}
      description={change ? `From ${change.effectiveFrom}, every ${productName} account and the public pages use these terms.` : undefined}
    >
      {change ? (
        <ul className="terms-confirm">
          <li>Monthly fee: {formatMoney(change.monthlyFeeCents)}</li>
          <li>
            Fee waived with:{' '}
            {[
              change.waiverMinDailyBalanceCents === null ? null : `${formatMoney(change.waiverMinDailyBalanceCents)} minimum daily balance`,
              change.waiverMonthlyDepositsCents === null ? null : `${formatMoney(change.waiverMonthlyDepositsCents)} deposits in the month`,
            ]
              .filter(Boolean)
              .join(' or ') || 'no waiver'}
          </li>
          <li>Opening deposit: {formatMoney(change.openingDepositCents)}</li>
          {change.tiers.map((tier) => (
            <li key={tier.fromCents}>
              Interest from {formatMoney(tier.fromCents)}: {percentOfBps(tier.rateBps)}
            </li>
          ))}
          <li>Reason: {change.reason}</li>
        </ul>
      ) : null}
      {error ? (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      ) : null}
      <div className="terms-confirm__actions">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={onConfirm} loading={busy}>
          Schedule from {change?.effectiveFrom}
        </Button>
      </div>
    </Dialog>
  );
}
