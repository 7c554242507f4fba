import { Copy, Gift, Users } from 'lucide-react';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { referralBonusCents, referralMessages, type ReferralItem } from '@strongroom/contracts/referrals.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Accordion } from '../../components/ui/accordion.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Badge, type BadgeTone } from '../../components/ui/badge.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { Table } from '../../components/ui/table.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { formatDate, machineDateTime } from '../../lib/dates.ts';
import { useReferral, useReferrals } from './api/referral.ts';
import './invite-page.css';

const bonus = formatMoney(referralBonusCents);

/** `refused`: the bank found the friend was not a new customer (decision 051); it is not paid. */
const statusWords: Record<ReferralItem['status'], string> = { pending: 'Pending', paid: 'Paid', refused: 'Not paid' };
const statusTones: Record<ReferralItem['status'], BadgeTone> = { pending: 'warning', paid: 'success', refused: 'danger' };

function ReferralStatus({ item }: { item: ReferralItem }) {
  return <Badge tone={statusTones[item.status]}>{statusWords[item.status]}</Badge>;
}

function CodeCard() {
  const referral = useReferral();
  const toast = useToast();

  async function copyLink(link: string) {
    try {
      await navigator.clipboard.writeText(link);
      toast.show(referralMessages.linkCopied);
    } catch {
      toast.show('The link was not copied: select it and copy it yourself.', 'error');
    }
  }

  return (
    <Card as="section" aria-labelledby="invite-code" className="invite__code-card">
      <h2 id="invite-code">Your referral code</h2>
      {referral.isPending ? (
        <LoadingLine>Loading your code…</LoadingLine>
      ) : referral.isError ? (
        <LoadFailed title="We could not load your referral code" query={referral} headingLevel={3} />
      ) : (
        <>
          <p className="invite__code tabular" aria-label={`Referral code ${referral.data.code.split('').join(' ')}`}>
            {referral.data.code}
          </p>
          <label className="field__label" htmlFor="invite-link">
            Your link
          </label>
          <div className="invite__link-row">
            <input
              id="invite-link"
              className="field__control invite__link"
              readOnly
              value={referral.data.link}
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button onClick={() => void copyLink(referral.data.link)}>
              <Copy aria-hidden="true" size={18} />
              Copy
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

function ReferralList() {
  const referrals = useReferrals();
  if (referrals.isPending) {
    return <LoadingLine>Loading your referrals…</LoadingLine>;
  }
  if (referrals.isError) return <LoadFailed title="We could not load your referrals" query={referrals} headingLevel={3} />;
  const list = referrals.data;
  if (list.items.length === 0) {
    return (
      <EmptyState icon={<Users aria-hidden="true" size={28} />} title="No referrals yet" headingLevel={3}>
        <p>When a friend signs up with your link, they show here. You receive {bonus} once their identity is verified.</p>
      </EmptyState>
    );
  }
  return (
    <>
      <p className="invite__totals">
        {list.paidCount} paid (<MoneyAmount cents={list.paidCents} />
        ), {list.pendingCount} waiting for their identity to be verified.
      </p>
      <Table
        caption="Your referrals"
        captionHidden
        columns={[
          { key: 'status', header: 'Status', cell: (item: ReferralItem) => <ReferralStatus item={item} /> },
          {
            key: 'joined',
            header: 'Signed up',
            cell: (item: ReferralItem) => <time dateTime={machineDateTime(item.createdAt)}>{formatDate(item.createdAt)}</time>,
          },
          {
            key: 'paid',
            header: 'Paid on',
            cell: (item: ReferralItem) => (item.paidAt ? <time dateTime={machineDateTime(item.paidAt)}>{formatDate(item.paidAt)}</time> : '—'),
          },
          { key: 'bonus', header: 'Bonus', numeric: true, cell: (item: ReferralItem) => <MoneyAmount cents={item.bonusCents} /> },
        ]}
        rows={list.items}
        rowKey={(item) => item.id}
      />
    </>
  );
}

/** /invite (seed section 2, D11, D12): the bonus explained, the customer's own code and link with a Copy that copies, and their referrals. */
export default function InvitePage() {
  return (
    <Page className="invite">
      <PageMeta title="Invite a friend" description="Invite a friend and get a referral bonus." noIndex />
      <PageHeader title="Invite a friend" />
      <Accordion
        headingLevel={2}
        items={[
          {
            id: 'bonus',
            title: `Get ${bonus} referral bonus`,
            content: (
              <>
                <p>
                  Share your link with a friend. When they open an account with it and we have verified their identity, we pay {bonus} into your checking
                  account, once for each friend you bring. It shows in your history as “Referral bonus”.
                </p>
                <p>
                  Your friend sees only your link; you see only whether their bonus is pending or paid. We never show you their details, and never show them
                  yours. A friend who already banks with us, or who is you signing up again, brings no bonus.
                </p>
              </>
            ),
          },
        ]}
      />
      <CodeCard />
      <Card as="section" aria-labelledby="invite-referrals">
        <h2 id="invite-referrals">
          <Gift aria-hidden="true" size={22} /> Your referrals
        </h2>
        <ReferralList />
      </Card>
    </Page>
  );
}
