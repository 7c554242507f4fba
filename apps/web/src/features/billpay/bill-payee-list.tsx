import { useState } from 'react';
import { Link } from 'react-router';
import { Trash2 } from 'lucide-react';
import type { BillPayee } from '@strongroom/contracts/bill-payees.ts';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useBillPayees } from '../../lib/api/get-bill-payees.ts';
import { useDeleteBillPayee } from './api/delete-bill-payee.ts';
import type { BillCategoryTile } from './bill-categories.ts';

/** "City Water, account ending 4821": the payee as the history names its payments. */
export function payeeDescription(payee: BillPayee): string {
  return `${payee.billerName}, account ending ${payee.accountEnding}`;
}

function PayeeItem({ payee, onRemove }: { payee: BillPayee; onRemove: (payee: BillPayee) => void }) {
  return (
    <Card as="li" className="bill-list__item">
      <div className="bill-list__details">
        <h3 className="bill-list__name">{payee.nickname}</h3>
        <p className="bill-list__meta">{payeeDescription(payee)}</p>
      </div>
      <div className="bill-list__actions">
        <Link to={{ search: `?pay=${encodeURIComponent(payee.id)}` }} className={buttonClassName({ variant: 'primary' })} aria-label={`Pay ${payee.nickname}`}>
          Pay
        </Link>
        <Button variant="ghost" className="bill-list__remove" aria-label={`Remove payee: ${payee.nickname}`} onClick={() => onRemove(payee)}>
          <Trash2 aria-hidden="true" size={20} />
        </Button>
      </div>
    </Card>
  );
}

/** "Your payees" of one category, first on its page: each with Pay, and Remove after a confirmation. */
export function BillPayeeList({ tile }: { tile: BillCategoryTile }) {
  const payees = useBillPayees();
  const removing = useDeleteBillPayee();
  const toast = useToast();
  const [pendingRemove, setPendingRemove] = useState<BillPayee | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);

  function confirmRemove() {
    if (!pendingRemove) return;
    const { id, nickname } = pendingRemove;
    removing.mutate(id, {
      onSuccess: () => toast.show(`${nickname} was removed from your payees`),
      onError: (error) => setRemoveError(error.message),
      onSettled: () => setPendingRemove(null),
    });
  }

  const items = payees.data?.items.filter((payee) => payee.category === tile.slug) ?? [];
  return (
    <section className="bill-category__section" aria-labelledby="payees-heading">
      <h2 id="payees-heading">Your payees</h2>
      {payees.isPending ? (
        <LoadingLine>Loading your payees…</LoadingLine>
      ) : payees.isError ? (
        <LoadFailed title="We could not load your payees" headingLevel={3} query={payees} />
      ) : items.length === 0 ? (
        <p className="bill-category__lead">No payees here yet: add one from the billers below.</p>
      ) : (
        <ul className="bill-list">
          {items.map((payee) => (
            <PayeeItem key={payee.id} payee={payee} onRemove={setPendingRemove} />
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={pendingRemove !== null}
        title="Remove this payee?"
        description={
          <p>
            {pendingRemove?.nickname} ({pendingRemove ? payeeDescription(pendingRemove) : ''}) will be removed from your payees. Payments already made are not
            affected.
          </p>
        }
        confirmLabel="Remove payee"
        confirmVariant="danger"
        busy={removing.isPending}
        onConfirm={confirmRemove}
        onCancel={() => setPendingRemove(null)}
      />
      <ErrorDialog title="The payee was not removed" message={removeError} onClose={() => setRemoveError(null)} />
    </section>
  );
}
