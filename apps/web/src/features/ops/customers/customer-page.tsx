import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { AccountBalance } from '@strongroom/contracts/accounts.ts';
import type { CustomerDetail, CustomerSession } from '@strongroom/contracts/staff-customers.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Button, type ButtonVariant } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useStaffMe } from '../api/staff-session.ts';
import { statusWords } from '../status-words.ts';
import { useCustomerDetail } from './api/customer-detail.ts';
import { FrozenBadge, IdentityBadge } from './customer-badges.tsx';
import { AccountManagement } from './account-management.tsx';
import { ContactCorrectionDialog } from './contact-correction-dialog.tsx';
import { CustomerProducts } from './customer-products.tsx';
import { CustomerFees } from '../products/customer-fees.tsx';
import { FreezeDialog } from './freeze-dialog.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
import { useCustomerActions, type CustomerActions, type PendingAction } from './use-customer-actions.ts';
import './customers.css';

const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

/** An account's state in words: closed, or open and active, or open and inactive until the identity is approved. */
function accountStateOf(account: AccountBalance): string {
  if (account.status === 'closed') return 'Closed';
  return account.active ? 'Active' : 'Inactive';
}

const accountColumns: readonly TableColumn<AccountBalance>[] = [
  { key: 'name', header: 'Account', cell: (row) => `${row.name} (${row.type})` },
  { key: 'number', header: 'Number', cell: (row) => row.number },
  { key: 'status', header: 'Status', cell: accountStateOf },
  { key: 'balance', header: 'Balance', numeric: true, cell: (row) => <MoneyAmount cents={row.balanceCents} /> },
  { key: 'available', header: 'Available', numeric: true, cell: (row) => <MoneyAmount cents={row.availableCents} /> },
];

const transactionColumns: readonly TableColumn<Transaction>[] = [
  { key: 'date', header: 'Date', cell: (row) => when(row.createdAt) },
  { key: 'description', header: 'Description', cell: (row) => row.description },
  { key: 'status', header: 'Status', cell: (row) => statusWords[row.status] },
  { key: 'amount', header: 'Amount', numeric: true, cell: (row) => <MoneyAmount cents={row.amountCents} signed /> },
];

function Facts({ detail }: { detail: CustomerDetail }) {
  const { profile, identity } = detail;
  return (
    <div className="customer-care__facts">
      <section aria-labelledby="customer-profile">
        <h2 id="customer-profile">Profile</h2>
        <dl>
          <dt>Email</dt>
          <dd>
            {profile.email} {profile.emailVerified ? '(verified)' : '(not verified)'}
          </dd>
          <dt>Phone</dt>
          <dd>{profile.phoneNumber ? `${profile.phoneNumber} ${profile.phoneVerified ? '(verified)' : '(not verified)'}` : 'None'}</dd>
          <dt>Postal address</dt>
          <dd className="customer-care__address">
            {detail.address ? `${detail.address.address}\n${detail.address.city}, ${detail.address.state} ${detail.address.zipCode}` : 'None on file'}
          </dd>
          <dt>Customer since</dt>
          <dd>{when(profile.createdAt)}</dd>
        </dl>
      </section>
      <section aria-labelledby="customer-identity">
        <h2 id="customer-identity">Identity</h2>
        <dl>
          <dt>Status</dt>
          <dd>
            <IdentityBadge status={identity.status} />
          </dd>
          {identity.reason ? (
            <>
              <dt>Reason</dt>
              <dd>{identity.reason}</dd>
            </>
          ) : null}
          <dt>ID number</dt>
          <dd>{identity.idNumberMasked ?? 'Not submitted'}</dd>
          {identity.submittedAt ? (
            <>
              <dt>Submitted</dt>
              <dd>{when(identity.submittedAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>
    </div>
  );
}

/** The freeze: since when, by whom and why, with Freeze or Unfreeze for those who may. */
function FreezeSection({ data, fullName, canAct, ask }: { data: CustomerDetail; fullName: string; canAct: boolean; ask: CustomerActions['ask'] }) {
  const freezeToggle: { variant: ButtonVariant; label: string; action: PendingAction } = data.freeze.frozen
    ? {
        variant: 'secondary',
        label: 'Unfreeze',
        action: {
          action: { kind: 'unfreeze' },
          title: `Unfreeze ${fullName}`,
          consequence: `${fullName} can move money again and is told so.`,
          confirmLabel: `Unfreeze ${fullName}`,
        },
      }
    : {
        variant: 'danger',
        label: 'Freeze',
        action: {
          action: { kind: 'freeze' },
          title: `Freeze ${fullName}`,
          consequence: `All of ${fullName}'s sessions end now. They can sign in and read, but no money moves until someone unfreezes them. They are told the message you choose below, never the internal reason.`,
          confirmLabel: `Freeze ${fullName}`,
        },
      };
  return (
    <section aria-labelledby="customer-freeze" className="customer-care__freeze">
      <h2 id="customer-freeze">Freeze</h2>
      {data.freeze.frozen ? (
        <>
          <p>
            Frozen since {data.freeze.frozenAt ? when(data.freeze.frozenAt) : 'unknown'} by {data.freeze.frozenBy}.
          </p>
          <dl className="customer-care__freeze-texts">
            <dt>Internal reason (staff only)</dt>
            <dd>{data.freeze.reason}</dd>
            <dt>The customer sees</dt>
            <dd>{data.freeze.customerMessage}</dd>
          </dl>
        </>
      ) : (
        <p>Not frozen: the customer can move money.</p>
      )}
      {canAct ? (
        <Button variant={freezeToggle.variant} onClick={() => ask(freezeToggle.action)}>
          {freezeToggle.label}
        </Button>
      ) : null}
    </section>
  );
}

/** Where the customer is signed in, with End for each session and End all, for those who may. */
function SessionsSection({ data, fullName, canAct, ask }: { data: CustomerDetail; fullName: string; canAct: boolean; ask: CustomerActions['ask'] }) {
  const sessionColumns: readonly TableColumn<CustomerSession>[] = [
    { key: 'device', header: 'Device', cell: (row) => row.device ?? 'Unknown' },
    { key: 'ip', header: 'IP address', cell: (row) => row.ip ?? 'Unknown' },
    { key: 'created', header: 'Signed in', cell: (row) => when(row.createdAt) },
    { key: 'seen', header: 'Last seen', cell: (row) => when(row.lastSeenAt) },
    ...(canAct
      ? [
          {
            key: 'end',
            header: 'Action',
            cell: (row: CustomerSession) => (
              <Button
                size="sm"
                variant="secondary"
                onClick={() =>
                  ask({
                    action: { kind: 'end-session', sessionId: row.id },
                    title: 'End this session',
                    consequence: `${fullName} is signed out on this device (${row.device ?? 'unknown device'}).`,
                    confirmLabel: 'End session',
                  })
                }
              >
                End
              </Button>
            ),
          },
        ]
      : []),
  ];
  return (
    <div className="customer-care__sessions">
      <Table caption="Live sessions" columns={sessionColumns} rows={data.sessions} rowKey={(row) => row.id} empty="Not signed in anywhere." />
      {canAct && data.sessions.length > 0 ? (
        <Button
          variant="secondary"
          onClick={() =>
            ask({
              action: { kind: 'end-all' },
              title: 'End all sessions',
              consequence: `${fullName} is signed out everywhere (${data.sessions.length} ${data.sessions.length === 1 ? 'session' : 'sessions'}).`,
              confirmLabel: 'End all sessions',
            })
          }
        >
          End all
        </Button>
      ) : null}
    </div>
  );
}

function RecentNotifications({ notifications }: { notifications: CustomerDetail['notifications'] }) {
  return (
    <section aria-labelledby="customer-notifications">
      <h2 id="customer-notifications">Recent notifications</h2>
      {notifications.length === 0 ? (
        <p>No notifications.</p>
      ) : (
        <ul className="customer-care__notifications">
          {notifications.map((notification) => (
            <li key={notification.id}>
              <strong>{notification.name}</strong> {when(notification.createdAt)}
              <br />
              {notification.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The reason asked for the pending action: a freeze also asks for the customer's message. */
function PendingActionDialog({ actions }: { actions: CustomerActions }) {
  const { pending } = actions;
  if (!pending) return null;
  const shared = {
    open: true,
    title: pending.title,
    consequence: pending.consequence,
    confirmLabel: pending.confirmLabel,
    busy: actions.busy,
    error: actions.error,
    onClose: actions.cancel,
  };
  return pending.action.kind === 'freeze' ? (
    <FreezeDialog {...shared} onConfirm={actions.confirm} />
  ) : (
    <ReasonDialog {...shared} onConfirm={(reason) => actions.confirm({ reason })} />
  );
}

/** Correcting the contact details, for those who may. */
function ContactCorrection({
  customerId,
  data,
  fullName,
  onDone,
}: {
  customerId: string;
  data: CustomerDetail;
  fullName: string;
  onDone: (message: string | null) => void;
}) {
  const [correcting, setCorrecting] = useState(false);
  return (
    <>
      <p>
        <Button
          variant="secondary"
          onClick={() => {
            onDone(null);
            setCorrecting(true);
          }}
        >
          Correct contact details
        </Button>
      </p>
      {correcting ? (
        <ContactCorrectionDialog
          customerId={customerId}
          fullName={fullName}
          address={data.address}
          onDone={(message) => {
            setCorrecting(false);
            onDone(message);
          }}
          onClose={() => setCorrecting(false)}
        />
      ) : null}
    </>
  );
}

/** `/ops/customers/:id`: one customer on one screen, with ending sessions and freezing for admins. */
export default function CustomerPage() {
  const { id = '' } = useParams();
  const detail = useCustomerDetail(id);
  const me = useStaffMe();
  const actions = useCustomerActions(id);
  const canAct = me.data?.staff.permissions.includes('customers.freeze') ?? false;
  const canCorrect = me.data?.staff.permissions.includes('customers.correct') ?? false;
  const canManageAccounts = me.data?.staff.permissions.includes('accounts.manage') ?? false;
  const canRefundFees = me.data?.staff.permissions.includes('fees.refund') ?? false;

  if (detail.isPending) return <Spinner />;
  if (detail.isError) {
    if (detail.error instanceof ApiError && detail.error.code === 'not_found') {
      return (
        <EmptyState title="No such customer" headingLevel={1}>
          <Link to="/ops/customers">Back to the search</Link>
        </EmptyState>
      );
    }
    return <LoadFailed title="We could not load this customer" query={detail} headingLevel={1} />;
  }

  const data = detail.data;
  const fullName = `${data.profile.firstName} ${data.profile.lastName}`;

  return (
    <section aria-labelledby="customer-title" className="customer-care">
      <p>
        <Link to="/ops/customers">← Customers</Link>
      </p>
      <div className="customer-care__heading">
        <h1 id="customer-title">{fullName}</h1>
        <FrozenBadge frozen={data.freeze.frozen} />
      </div>
      {actions.done ? (
        <Notice tone="success" role="status">
          {actions.done}
        </Notice>
      ) : null}

      <FreezeSection data={data} fullName={fullName} canAct={canAct} ask={actions.ask} />
      <Facts detail={data} />
      {canCorrect ? <ContactCorrection customerId={id} data={data} fullName={fullName} onDone={actions.setDone} /> : null}

      <Table caption="Accounts" columns={accountColumns} rows={data.accounts} rowKey={(row) => row.id} empty="No accounts yet." />
      {canManageAccounts ? <AccountManagement customerId={id} fullName={fullName} accounts={data.accounts} onDone={actions.setDone} /> : null}
      <Table caption="Recent transactions" columns={transactionColumns} rows={data.transactions} rowKey={(row) => row.id} empty="No transactions yet." />
      <CustomerProducts cards={data.cards} loans={data.loans} />
      {canRefundFees && me.data ? <CustomerFees customerId={id} staffId={me.data.staff.id} /> : null}

      <SessionsSection data={data} fullName={fullName} canAct={canAct} ask={actions.ask} />
      <RecentNotifications notifications={data.notifications} />
      <PendingActionDialog actions={actions} />
    </section>
  );
}
