import { useParams, useSearchParams } from 'react-router';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { billCategoryOf, type BillCategoryTile } from './bill-categories.ts';
import { BillPayeeList } from './bill-payee-list.tsx';
import { BillerList } from './biller-list.tsx';
import { PayBillSection } from './pay-bill-section.tsx';
import { useBillPayAccess } from './use-bill-pay-access.ts';
import '../../components/payment/payment.css';
import './billpay-page.css';

/** The category's page once the customer may pay: the payees first, then the billers; or one payee's pay-now form. */
function CategoryBody({ tile, payeeId }: { tile: BillCategoryTile; payeeId: string | null }) {
  const access = useBillPayAccess();
  if (access.state === 'loading') return <LoadingLine>Checking your accounts…</LoadingLine>;
  if (access.state === 'failed') return <LoadFailed title="We could not load your accounts" headingLevel={2} query={access.query} />;
  if (access.state === 'not_approved') {
    return (
      <Notice>
        <p className="billpay__message">{resultMessages.billPayNotApproved}</p>
        <p>We open your accounts as soon as your identity has been checked; then you can pay bills from them.</p>
      </Notice>
    );
  }
  if (payeeId !== null) return <PayBillSection tile={tile} payeeId={payeeId} accounts={access.accounts} />;
  return (
    <>
      <BillPayeeList tile={tile} />
      <BillerList tile={tile} />
    </>
  );
}

/**
 * /billpay/:category: one tile of Bill Pay (issue 33 items 2 and 3): the customer's payees of the
 * category with Pay, its billers to add a payee from, and `?pay=<payeeId>` to pay one now.
 */
export default function BillCategoryPage() {
  const { category } = useParams();
  const [searchParams] = useSearchParams();
  const tile = billCategoryOf(category);
  if (!tile) {
    return (
      <Page>
        <PageMeta title="Bill Pay" description="Pay your bills." noIndex />
        <BackLink to="/billpay">Bill Pay</BackLink>
        <EmptyState title="There is no such kind of bill" headingLevel={1}>
          <p>Choose one of the tiles of Bill Pay.</p>
        </EmptyState>
      </Page>
    );
  }
  const payeeId = searchParams.get('pay');
  return (
    <Page className="bill-category">
      <PageMeta title={`${tile.name} | Bill Pay`} description={`Pay a ${tile.name} bill.`} noIndex />
      {payeeId === null ? <BackLink to="/billpay">Bill Pay</BackLink> : <BackLink to={`/billpay/${tile.slug}`}>{tile.name}</BackLink>}
      <PageHeader title={tile.name} lead={payeeId === null ? 'Pay one of your payees, or add your account with a biller.' : undefined} />
      <CategoryBody tile={tile} payeeId={payeeId} />
    </Page>
  );
}
