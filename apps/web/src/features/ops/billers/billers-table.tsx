import { Pencil } from 'lucide-react';
import type { BillCategory, StaffBiller } from '@strongroom/contracts/billers.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { categoryLabels, paymentMethodLabels } from './biller-form-schema.ts';

/** How the bank pays a biller, in a line: the ACH details staff check against the biller's invoice. */
function paidBy(biller: StaffBiller): string {
  if (biller.paymentMethod !== 'ach') return paymentMethodLabels[biller.paymentMethod];
  return `ACH to routing ${biller.routingNumber ?? '—'}, account ${biller.accountNumber ?? '—'}`;
}

/** One category's billers, with an Edit button each. */
export function BillersTable({
  category,
  billers,
  onEdit,
}: {
  category: BillCategory;
  billers: readonly StaffBiller[];
  onEdit: (biller: StaffBiller) => void;
}) {
  const label = categoryLabels[category];
  const columns: readonly TableColumn<StaffBiller>[] = [
    { key: 'name', header: 'Name', cell: (row) => row.name },
    {
      key: 'number',
      header: 'Account number',
      cell: (row) => (
        <>
          <code className="billers__pattern">{row.accountNumberPattern}</code>
          <span className="billers__example">e.g. {row.accountNumberExample}</span>
        </>
      ),
    },
    { key: 'paid', header: 'How paid', cell: paidBy },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => (row.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>),
    },
    {
      key: 'edit',
      header: 'Action',
      cell: (row) => (
        <Button size="sm" variant="secondary" onClick={() => onEdit(row)} aria-label={`Edit ${row.name}`}>
          <Pencil aria-hidden="true" size={16} />
          Edit
        </Button>
      ),
    },
  ];
  return (
    <section aria-labelledby={`billers-${category}`} className="billers__category">
      <h2 id={`billers-${category}`}>{label}</h2>
      <Table
        caption={`${label} billers`}
        captionHidden
        columns={columns}
        rows={billers}
        rowKey={(row) => row.id}
        empty={`No ${label.toLowerCase()} billers.`}
      />
    </section>
  );
}
