import { useState } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { DuplicateCustomer, SharedSignal, StaffReferralBonus } from '@strongroom/contracts/staff-identity.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice, type NoticeTone } from '../../../components/ui/notice.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useReferralBonusDecision } from './identity-api.ts';
import { ReasonDialog } from './reason-dialog.tsx';

const signalWords: Record<SharedSignal, string> = { id_number: 'ID number', phone: 'phone number', device: 'browser' };

/** "ID number and phone number": what is shared, in words. */
export function sharedInWords(signals: readonly SharedSignal[]): string {
  const words = signals.map((signal) => signalWords[signal]);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

const duplicateColumns: readonly TableColumn<DuplicateCustomer>[] = [
  {
    key: 'customer',
    header: 'Customer',
    cell: (customer) => (
      <>
        <Link to={`/ops/customers/${customer.customerId}`}>{customer.name}</Link>
        {customer.referrer ? <div className="ops-queue__secondary">Referred this customer</div> : null}
      </>
    ),
  },
  { key: 'shares', header: 'Shares', cell: (customer) => sharedInWords(customer.shares) },
];

/**
 * Other customers with this review's phone number, ID number or browser: one person signing up
 * twice (a referrer collecting their own bonus) leaves these behind.
 */
export function DuplicatesTable({ duplicates }: { duplicates: readonly DuplicateCustomer[] }) {
  return (
    <Table
      caption="Customers who share this phone number, ID number or browser"
      columns={duplicateColumns}
      rows={duplicates}
      rowKey={(customer) => customer.customerId}
      empty="No other customer shares this phone number, ID number or browser."
    />
  );
}

const bonusStatusWords: Record<StaffReferralBonus['status'], string> = {
  pending: 'Waiting to be paid',
  held: 'Held for review',
  paid: 'Paid',
  refused: 'Refused',
};

const bonusTones: Record<StaffReferralBonus['status'], NoticeTone> = { pending: 'info', held: 'info', paid: 'success', refused: 'error' };

/** The referral bonus this sign-up earns its referrer; a held one is paid or refused here, with a reason. */
export function ReferralBonusPanel({ bonus }: { bonus: StaffReferralBonus }) {
  const decide = useReferralBonusDecision(bonus.id);
  const [decision, setDecision] = useState<'pay' | 'refuse' | null>(null);
  const amount = formatMoney(bonus.bonusCents);
  const held = bonus.heldBecause.length > 0 ? ` The customer shares their ${sharedInWords(bonus.heldBecause)} with another customer.` : '';
  return (
    <>
      <Notice tone={bonusTones[bonus.status]}>
        {bonusStatusWords[bonus.status]}: {amount} to {bonus.referrerName}.{held}
        {bonus.decidedAt ? ` Decided on ${formatDateTime(bonus.decidedAt)}${bonus.decisionReason ? `: ${bonus.decisionReason}` : ''}.` : ''}
      </Notice>
      {bonus.status === 'held' ? (
        <div className="ops-review__actions">
          <Button onClick={() => setDecision('pay')}>
            Pay {amount} to {bonus.referrerName}
          </Button>
          <Button variant="danger" onClick={() => setDecision('refuse')}>
            Refuse the bonus
          </Button>
          <ReasonDialog
            open={decision !== null}
            title={decision === 'pay' ? `Pay ${amount} to ${bonus.referrerName}?` : 'Refuse this referral bonus?'}
            description={
              decision === 'pay'
                ? 'The bonus is paid into their checking account and they are told. It cannot be undone.'
                : 'Nothing is paid; the referrer sees the bonus as not paid. It cannot be undone.'
            }
            confirmLabel={decision === 'pay' ? `Pay ${amount}` : 'Refuse'}
            confirmVariant={decision === 'pay' ? 'primary' : 'danger'}
            pending={decide.isPending}
            error={decide.error instanceof ApiError && decide.error.code === 'already_decided' ? 'Someone already decided this bonus.' : decide.error?.message}
            onClose={() => {
              decide.reset();
              setDecision(null);
            }}
            onConfirm={(reason) => decision && decide.mutate({ decision, reason }, { onSuccess: () => setDecision(null) })}
          />
        </div>
      ) : null}
    </>
  );
}
