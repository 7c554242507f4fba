import { useState } from 'react';
import { Plus, ReceiptText } from 'lucide-react';
import { billCategories, type StaffBiller } from '@strongroom/contracts/billers.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { BillerDialog } from './biller-dialog.tsx';
import { useStaffBillers } from './billers-api.ts';
import { BillersTable } from './billers-table.tsx';
import './billers.css';

/** Which dialog is open: none, a new biller, or the biller being edited. */
type Editing = { biller: StaffBiller | null } | null;

/**
 * `/ops/billers` (`billers.manage`): bill pay's directory, by the twelve categories, with each
 * biller's account-number rule, how the bank pays it and whether customers can choose it (issue 33 item 1).
 */
export default function BillersPage() {
  const billers = useStaffBillers();
  const [editing, setEditing] = useState<Editing>(null);
  const [done, setDone] = useState<string | null>(null);
  const items = billers.data?.items;

  function open(biller: StaffBiller | null) {
    setDone(null);
    setEditing({ biller });
  }

  return (
    <section aria-labelledby="billers-title" className="ops-page billers">
      <div className="billers__heading">
        <h1 id="billers-title">Billers</h1>
        <Button onClick={() => open(null)}>
          <Plus aria-hidden="true" size={16} />
          Add a biller
        </Button>
      </div>
      <p>
        The companies customers pay from bill pay. A customer&rsquo;s account number at a biller must match its pattern; an inactive biller is hidden from
        customers, and payments already made to it stay as they are.
      </p>
      {done ? (
        <Notice tone="success" role="status">
          {done}
        </Notice>
      ) : null}
      {billers.isPending ? <LoadingLine>Loading the billers…</LoadingLine> : null}
      {billers.isError ? <LoadFailed title="The billers could not be loaded" query={billers} /> : null}
      {items?.length === 0 ? (
        <EmptyState icon={<ReceiptText aria-hidden="true" />} title="No billers yet">
          Add the first with &ldquo;Add a biller&rdquo;.
        </EmptyState>
      ) : null}
      {items && items.length > 0
        ? billCategories.map((category) => (
            <BillersTable key={category} category={category} billers={items.filter((item) => item.category === category)} onEdit={open} />
          ))
        : null}
      {editing ? (
        <BillerDialog
          key={editing.biller?.id ?? 'new'}
          biller={editing.biller}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            setDone(message);
          }}
        />
      ) : null}
    </section>
  );
}
