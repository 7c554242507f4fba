import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Account } from '@strongroom/contracts/accounts.ts';
import type { CustomerDetail, CustomerSession } from '@strongroom/contracts/staff-customers.ts';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { Button } from '../../../components/ui/button.tsx';
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
import { useCustomerAction, type CustomerAction } from './api/customer-actions.ts';
import { useCustomerDetail } from './api/customer-detail.ts';
import { FrozenBadge, IdentityBadge } from './customer-badges.tsx';
import { ContactCorrectionDialog } from './contact-correction-dialog.tsx';
import { CustomerProducts } from './customer-products.tsx';
import { FreezeDialog } from './freeze-dialog.tsx';
import { ReasonDialog } from './reason-dialog.tsx';
import './customers.css';

const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso)}</time>;

const accountColumns: readonly TableColumn<Account>[] = [
  { key: 'name', header: 'Account', cell: (row) => `${row.name} (${row.type})` },
  { key: 'number', header: 'Number', cell: (row) => row.number },
  { key: 'status', header: 'Status', cell: (row) => (row.status === 'active' ? 'Active' : 'Inactive') },
  { key: 'balance', header: 'Balance', numeric: true, cell: (row) => <MoneyAmount cents={row.balanceCents} /> },
  { key: 'available', header: 'Available', numeric: true, cell: (row) => <MoneyAmount cents={row.availableCents} /> },
];

const transactionColumns: readonly TableColumn<Transaction>[] = [
  { key: 'date', header: 'Date', cell: (row) => when(row.createdAt) },
  { key: 'description', header: 'Description', cell: (row) => row.description },
  { key: 'status', header: 'Status', cell: (row) => statusWords[row.status] },
  { key: 'amount', header: 'Amount', numeric: true, cell: (row) => <MoneyAmount cents={row.amountCents} signed /> },
];

interface Pending {
  action: CustomerAction;
  title: string;
  consequence: string;
  confirmLabel: string;
}

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

/** `/ops/customers/:id`: one customer on one screen, with ending sessions and freezing for admins. */
export default function CustomerPage() {
  const { id = '' } = useParams();
  const detail = useCustomerDetail(id);
  const me = useStaffMe();
  const action = useCustomerAction(id);
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const canAct = me.data?.staff.permissions.includes('customers.freeze') ?? false;
  const canCorrect = me.data?.staff.permissions.includes('customers.correct') ?? false;
  const [correcting, setCorrecting] = useState(false);

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

  function ask(next: Pending) {
    action.reset();
    setDone(null);
    setPending(next);
  }

  function confirm(body: { reason: string } | { reason: string; customerMessage: string }) {
    if (!pending) return;
    const chosen = pending;
    action.mutate(
      { action: chosen.action, body },
      {
        onSuccess: () => {
          setPending(null);
          setDone(`${chosen.confirmLabel}: done.`);
        },
      },
    );
  }

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
    <section aria-labelledby="customer-title" className="customer-care">
      <p>
        <Link to="/ops/customers">← Customers</Link>
      </p>
      <div className="customer-care__heading">
        <h1 id="customer-title">{fullName}</h1>
        <FrozenBadge frozen={data.freeze.frozen} />
      </div>
      {done ? (
        <Notice tone="success" role="status">
          {done}
        </Notice>
      ) : null}

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
          data.freeze.frozen ? (
            <Button
              variant="secondary"
              onClick={() =>
                ask({
                  action: { kind: 'unfreeze' },
                  title: `Unfreeze ${fullName}`,
                  consequence: `${fullName} can move money again and is told so.`,
                  confirmLabel: `Unfreeze ${fullName}`,
                })
              }
            >
              Unfreeze
            </Button>
          ) : (
            <Button
              variant="danger"
              onClick={() =>
                ask({
                  action: { kind: 'freeze' },
                  title: `Freeze ${fullName}`,
                  consequence: `All of ${fullName}'s sessions end now. They can sign in and read, but no money moves until someone unfreezes them. They are told the message you choose below, never the internal reason.`,
                  confirmLabel: `Freeze ${fullName}`,
                })
              }
            >
              Freeze
            </Button>
          )
        ) : null}
      </section>

      <Facts detail={data} />
      {canCorrect ? (
        <p>
          <Button
            variant="secondary"
            onClick={() => {
              setDone(null);
              setCorrecting(true);
            }}
          >
            Correct contact details
          </Button>
        </p>
      ) : null}
      {correcting ? (
        <ContactCorrectionDialog
          customerId={id}
          fullName={fullName}
          address={data.address}
          onDone={(message) => {
            setCorrecting(false);
            setDone(message);
          }}
          onClose={() => setCorrecting(false)}
        />
      ) : null}

      <Table caption="Accounts" columns={accountColumns} rows={data.accounts} rowKey={(row) => row.id} empty="No accounts yet." />
      <Table caption="Recent transactions" columns={transactionColumns} rows={data.transactions} rowKey={(row) => row.id} empty="No transactions yet." />
      <CustomerProducts cards={data.cards} loans={data.loans} />

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

      <section aria-labelledby="customer-notifications">
        <h2 id="customer-notifications">Recent notifications</h2>
        {data.notifications.length === 0 ? (
          <p>No notifications.</p>
        ) : (
          <ul className="customer-care__notifications">
            {data.notifications.map((notification) => (
              <li key={notification.id}>
                <strong>{notification.name}</strong> {when(notification.createdAt)}
                <br />
                {notification.text}
              </li>
            ))}
          </ul>
        )}
      </section>

      {pending?.action.kind === 'freeze' ? (
        <FreezeDialog
          open
          title={pending.title}
          consequence={pending.consequence}
          confirmLabel={pending.confirmLabel}
          busy={action.isPending}
          error={action.error?.message}
          onConfirm={confirm}
          onClose={() => setPending(null)}
        />
      ) : pending ? (
        <ReasonDialog
          open
          title={pending.title}
          consequence={pending.consequence}
          confirmLabel={pending.confirmLabel}
          busy={action.isPending}
          error={action.error?.message}
          onConfirm={(reason) => confirm({ reason })}
          onClose={() => setPending(null)}
        />
      ) : null}
    </section>
  );
}
