import { useState } from 'react';
import { Building2 } from 'lucide-react';
import type { Biller } from '@strongroom/contracts/billers.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { AddPayeeDialog } from './add-payee-dialog.tsx';
import { useBillers } from './api/get-billers.ts';
import type { BillCategoryTile } from './bill-categories.ts';

/** The category's billers (`GET /billers?category=`), each one a payee the customer can add. */
export function BillerList({ tile }: { tile: BillCategoryTile }) {
  const billers = useBillers(tile.slug);
  const toast = useToast();
  const [chosen, setChosen] = useState<Biller | null>(null);

  let content;
  if (billers.isPending) {
    content = <LoadingLine>Loading the billers…</LoadingLine>;
  } else if (billers.isError) {
    content = <LoadFailed title="We could not load the billers" headingLevel={3} query={billers} />;
  } else if (billers.data.items.length === 0) {
    content = (
      <EmptyState icon={<Building2 aria-hidden="true" size={28} />} title="No billers in this category yet" headingLevel={3}>
        <p>We add billers all the time. A bill of another kind may be under Other Bills.</p>
      </EmptyState>
    );
  } else {
    content = (
      <ul className="bill-list">
        {billers.data.items.map((biller) => (
          <Card as="li" key={biller.id} className="bill-list__item">
            <div className="bill-list__details">
              <h3 className="bill-list__name">{biller.name}</h3>
              <p className="bill-list__meta">
                Account numbers look like <span className="tabular">{biller.accountNumberExample}</span>
              </p>
            </div>
            <div className="bill-list__actions">
              <Button variant="secondary" onClick={() => setChosen(biller)} aria-label={`Add ${biller.name} as a payee`}>
                Add payee
              </Button>
            </div>
          </Card>
        ))}
      </ul>
    );
  }

  return (
    <section className="bill-category__section" aria-labelledby="billers-heading">
      <h2 id="billers-heading">Billers</h2>
      <p className="bill-category__lead">Choose the company that sends you the bill, and add your account with them.</p>
      {content}
      {chosen ? (
        <AddPayeeDialog
          biller={chosen}
          onClose={() => setChosen(null)}
          onAdded={(payee) => {
            setChosen(null);
            toast.show(`${payee.nickname} was added to your payees`);
          }}
        />
      ) : null}
    </section>
  );
}
