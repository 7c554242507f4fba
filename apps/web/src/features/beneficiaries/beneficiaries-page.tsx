import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Plus, Trash2, Users } from 'lucide-react';
import type { BankType, Beneficiary } from '@strongroom/contracts/beneficiaries.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { Tabs } from '../../components/ui/tabs.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { useDeleteBeneficiary } from './api/delete-beneficiary.ts';
import { useBeneficiaries } from '../../lib/api/get-beneficiaries.ts';
import './beneficiaries-page.css';
import { LoadingLine } from '../../components/ui/loading-line.tsx';

const tabs: readonly { bankType: BankType; label: string; emptyTitle: string; emptyText: string }[] = [
  {
    bankType: 'mybank',
    label: 'My Bank',
    emptyTitle: 'No beneficiaries at this bank',
    emptyText: 'Save the accounts at this bank you pay often, and choose them when you make a transfer.',
  },
  {
    bankType: 'otherbank',
    label: 'Other Bank',
    emptyTitle: 'No beneficiaries at other banks',
    emptyText: 'Save the accounts at other banks you pay often, and choose them when you make a transfer.',
  },
];

function BeneficiaryList({ items, onDelete }: { items: readonly Beneficiary[]; onDelete: (beneficiary: Beneficiary) => void }) {
  return (
    <ul className="beneficiary-list">
      {items.map((beneficiary) => (
        <Card as="li" key={beneficiary.id} className="beneficiary">
          <div className="beneficiary__details">
            <h2 className="beneficiary__name">{beneficiary.accountName}</h2>
            <p className="beneficiary__number">
              <span className="visually-hidden">Account number </span>
              <span className="tabular">{beneficiary.accountNumber}</span>
            </p>
            <p className="beneficiary__bank">{beneficiary.bankName}</p>
          </div>
          <Button
            variant="ghost"
            className="beneficiary__delete"
            aria-label={`Delete beneficiary: ${beneficiary.accountName}`}
            onClick={() => onDelete(beneficiary)}
          >
            <Trash2 aria-hidden="true" size={20} />
          </Button>
        </Card>
      ))}
    </ul>
  );
}

/** /beneficiaries: saved payees, in the tabs 'My Bank' and 'Other Bank', each with a delete that asks first. */
export default function BeneficiariesPage() {
  const beneficiaries = useBeneficiaries();
  // ?tab=otherbank opens that tab: after adding a beneficiary, the customer sees it where it went.
  // The choice shows at once; the address follows (replacing itself), so a reload keeps the tab.
  const [searchParams, setSearchParams] = useSearchParams();
  const [selectedTab, setSelectedTab] = useState<BankType>(() => tabs.find((tab) => tab.bankType === searchParams.get('tab'))?.bankType ?? 'mybank');
  const deleteBeneficiary = useDeleteBeneficiary();
  const toast = useToast();
  const [pendingDelete, setPendingDelete] = useState<Beneficiary | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  function confirmDelete() {
    if (!pendingDelete) return;
    const { accountName } = pendingDelete;
    deleteBeneficiary.mutate(pendingDelete.id, {
      onSuccess: () => {
        setPendingDelete(null);
        toast.show(`${accountName} was removed from your beneficiaries`);
      },
      onError: (error) => {
        setPendingDelete(null);
        setDeleteError(error.message);
      },
    });
  }

  return (
    <div className="beneficiaries">
      <PageMeta title="Beneficiaries" description="The accounts you pay often." noIndex />
      <header className="beneficiaries__header">
        <h1>Beneficiaries</h1>
      </header>

      {beneficiaries.isPending ? (
        <LoadingLine className="beneficiaries__loading">Loading your beneficiaries…</LoadingLine>
      ) : beneficiaries.isError ? (
        <LoadFailed title="We could not load your beneficiaries" query={beneficiaries} />
      ) : (
        <Tabs
          label="Beneficiaries by bank"
          selectedId={selectedTab}
          onSelectedChange={(id) => {
            const chosen = tabs.find((tab) => tab.bankType === id);
            if (!chosen) return;
            setSelectedTab(chosen.bankType);
            setSearchParams({ tab: chosen.bankType }, { replace: true });
          }}
          items={tabs.map((tab) => {
            const items = beneficiaries.data.items.filter((beneficiary) => beneficiary.bankType === tab.bankType);
            return {
              id: tab.bankType,
              label: tab.label,
              panel:
                items.length === 0 ? (
                  <EmptyState icon={<Users aria-hidden="true" size={28} />} title={tab.emptyTitle}>
                    <p>{tab.emptyText}</p>
                  </EmptyState>
                ) : (
                  <BeneficiaryList items={items} onDelete={setPendingDelete} />
                ),
            };
          })}
        />
      )}

      <Link to="/add-beneficiaries" className="beneficiaries__add">
        <Plus aria-hidden="true" size={22} />
        Add beneficiary
      </Link>

      <Dialog
        open={pendingDelete !== null}
        onClose={() => setPendingDelete(null)}
        dismissible={!deleteBeneficiary.isPending}
        size="sm"
        title="Delete this beneficiary?"
        description={
          <p>
            {pendingDelete?.accountName} ({pendingDelete?.accountNumber}) will be removed from your beneficiaries. Payments already made are not affected.
          </p>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setPendingDelete(null)} disabled={deleteBeneficiary.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirmDelete} loading={deleteBeneficiary.isPending}>
              Delete
            </Button>
          </>
        }
      />
      <ErrorDialog title="The beneficiary was not deleted" message={deleteError} onClose={() => setDeleteError(null)} />
    </div>
  );
}
