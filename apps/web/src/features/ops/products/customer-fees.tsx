import { useState } from 'react';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { CustomerFee } from '@strongroom/contracts/products.ts';
import { Button } from '../../../components/ui/button.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { ReasonDialog } from '../customers/reason-dialog.tsx';
import { useCustomerFees, useFeeAction, type FeeAction } from './fees-api.ts';
import { refundStateOf } from './refund-state.ts';

interface Asked {
  action: FeeAction;
  title: string;
  consequence: string;
  confirmLabel: string;
}

/** What each button asks, in words, before the reason is given. */
function askFor(kind: FeeAction['kind'], fee: CustomerFee, fourEyesCents: number): Asked {
  const amount = formatMoney(fee.amountCents);
  if (kind === 'refund') {
    const second = fee.amountCents >= fourEyesCents ? ` A fee of ${formatMoney(fourEyesCents)} or more waits for a second staff member's approval.` : '';
    return {
      action: { kind, feePaymentId: fee.paymentId },
      title: `Refund ${amount}`,
      consequence: `Give back the ${amount} fee of ${fee.accountName}, charged ${formatDateTime(fee.chargedAt)}, into the account it came from.${second}`,
      confirmLabel: `Refund ${amount}`,
    };
  }
  const refundId = fee.refund?.id ?? '';
  return kind === 'approve'
    ? {
        action: { kind, refundId },
        title: `Approve the ${amount} refund`,
        consequence: `${amount} goes back to ${fee.accountName} now.`,
        confirmLabel: `Approve: refund ${amount}`,
      }
    : { action: { kind, refundId }, title: `Reject the ${amount} refund`, consequence: 'No money moves; the fee stands.', confirmLabel: `Reject the refund` };
}

/** The customer page's "Fees" panel (`fees.refund`): each fee, its refund's state, and Refund, Approve or Reject with a reason. */
export function CustomerFees({ customerId, staffId }: { customerId: string; staffId: string }) {
  const fees = useCustomerFees(customerId, true);
  const action = useFeeAction();
  const [asked, setAsked] = useState<Asked | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const fourEyesCents = fees.data?.fourEyesCents ?? 0;

  function ask(kind: FeeAction['kind'], fee: CustomerFee) {
    action.reset();
    setDone(null);
    setAsked(askFor(kind, fee, fourEyesCents));
  }

  const columns: readonly TableColumn<CustomerFee>[] = [
    { key: 'date', header: 'Charged', cell: (row) => <time dateTime={row.chargedAt}>{formatDateTime(row.chargedAt)}</time> },
    { key: 'account', header: 'Account', cell: (row) => row.accountName },
    { key: 'what', header: 'Fee', cell: (row) => row.message },
    { key: 'amount', header: 'Amount', numeric: true, cell: (row) => formatMoney(row.amountCents) },
    { key: 'refund', header: 'Refund', cell: (row) => refundStateOf(row, staffId) },
    {
      key: 'actions',
      header: 'Action',
      cell: (row) => {
        const state = row.refund?.status;
        if (!state || state === 'rejected')
          return (
            <Button size="sm" variant="secondary" onClick={() => ask('refund', row)}>
              Refund
            </Button>
          );
        if (state !== 'awaiting_approval') return '—';
        return (
          <span className="fees__actions">
            {row.refund?.requestedBy === staffId ? null : (
              <Button size="sm" onClick={() => ask('approve', row)}>
                Approve
              </Button>
            )}
            <Button size="sm" variant="secondary" onClick={() => ask('reject', row)}>
              Reject
            </Button>
          </span>
        );
      },
    },
  ];

  return (
    <section aria-labelledby="customer-fees">
      <h2 id="customer-fees">Fees</h2>
      {fees.data ? <p className="field__hint">Refunds of {formatMoney(fees.data.fourEyesCents)} or more need a second staff member&rsquo;s approval.</p> : null}
      {done ? (
        <Notice tone="success" role="status">
          {done}
        </Notice>
      ) : null}
      {fees.isPending ? <LoadingLine>Loading the fees…</LoadingLine> : null}
      {fees.isError ? <LoadFailed title="The fees could not be loaded" query={fees} /> : null}
      {fees.data ? <Table caption="Fees charged" columns={columns} rows={fees.data.items} rowKey={(row) => row.paymentId} empty="No fees charged." /> : null}
      <ReasonDialog
        open={asked !== null}
        title={asked?.title ?? ''}
        consequence={asked?.consequence ?? ''}
        confirmLabel={asked?.confirmLabel ?? ''}
        busy={action.isPending}
        error={action.error?.message}
        onClose={() => setAsked(null)}
        onConfirm={(reason) => {
          if (!asked) return;
          const chosen = asked;
          action.mutate(
            { action: chosen.action, reason },
            {
              onSuccess: (answer) => {
                setAsked(null);
                setDone(
                  answer.refund.status === 'awaiting_approval'
                    ? `${chosen.confirmLabel}: asked; a second staff member must approve it.`
                    : `${chosen.confirmLabel}: done.`,
                );
              },
            },
          );
        }}
      />
    </section>
  );
}
