import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { useBillPayees } from '../../lib/api/get-bill-payees.ts';
import type { BillCategoryTile } from './bill-categories.ts';
import { PayBillForm } from './pay-bill-form.tsx';

interface PayBillSectionProps {
  tile: BillCategoryTile;
  payeeId: string;
  accounts: readonly Account[];
}

/** `?pay=<payeeId>` on a category's page: the payee's pay-now form, its heading focused (a new step). */
export function PayBillSection({ tile, payeeId, accounts }: PayBillSectionProps) {
  const payees = useBillPayees();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const payee = payees.data?.items.find((item) => item.id === payeeId && item.category === tile.slug);

  useEffect(() => {
    if (payee) headingRef.current?.focus();
  }, [payee]);

  if (payees.isPending) return <LoadingLine>Loading your payees…</LoadingLine>;
  if (payees.isError) return <LoadFailed title="We could not load your payees" headingLevel={2} query={payees} />;
  if (!payee) {
    return (
      <Notice tone="error">
        <p>
          This payee is not among your {tile.name} payees any more. <Link to={{ search: '' }}>Choose another payee</Link>.
        </p>
      </Notice>
    );
  }
  return (
    <section className="bill-category__section" aria-labelledby="pay-heading">
      <h2 id="pay-heading" ref={headingRef} tabIndex={-1}>
        Pay {payee.nickname}
      </h2>
      <p className="bill-category__lead">Fill in the details; you will see them again before anything is sent.</p>
      <PayBillForm payee={payee} accounts={accounts} />
    </section>
  );
}
