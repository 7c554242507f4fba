import { useState } from 'react';
import { Plug, Plus } from 'lucide-react';
import type { DataRecipient } from '@strongroom/contracts/connected-apps.ts';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { RecipientDialog } from './recipient-dialog.tsx';
import { useDataRecipients } from './recipients-api.ts';
import { RecipientsTable } from './recipients-table.tsx';
import { StatusDialog } from './status-dialog.tsx';
import './connected-apps.css';

/** Which dialog is open: none, a registration or an edit, or a status change. */
type Open = { kind: 'edit'; recipient: DataRecipient | null } | { kind: 'status'; recipient: DataRecipient } | null;

/**
 * `/ops/connected-apps` (`connected_apps.manage`): the apps customers may connect to their
 * accounts (data recipients), what each may ask for, how many customers are connected, and
 * register, edit, disable and enable, each with a reason (issue 38 item 2).
 */
export default function ConnectedAppsPage() {
  const recipients = useDataRecipients();
  const [open, setOpen] = useState<Open>(null);
  const [done, setDone] = useState<string | null>(null);
  const items = recipients.data?.items;

  function show(next: Open) {
    setDone(null);
    setOpen(next);
  }
  function finish(message: string) {
    setOpen(null);
    setDone(message);
  }

  return (
    <section aria-labelledby="connected-apps-title" className="ops-page connected-apps">
      <div className="connected-apps__heading">
        <h1 id="connected-apps-title">Connected apps</h1>
        <Button onClick={() => show({ kind: 'edit', recipient: null })}>
          <Plus aria-hidden="true" size={16} />
          Register an app
        </Button>
      </div>
      <p>
        Apps customers may let read their data through the bank&rsquo;s data API, each only what staff allow it and the customer consents to. Disabling an app
        ends every customer&rsquo;s consent to it at once.
      </p>
      {done ? (
        <Notice tone="success" role="status">
          {done}
        </Notice>
      ) : null}
      {recipients.isPending ? <LoadingLine>Loading the connected apps…</LoadingLine> : null}
      {recipients.isError ? <LoadFailed title="The connected apps could not be loaded" query={recipients} /> : null}
      {items?.length === 0 ? (
        <EmptyState icon={<Plug aria-hidden="true" />} title="No connected apps yet">
          Register the first with &ldquo;Register an app&rdquo;.
        </EmptyState>
      ) : null}
      {items && items.length > 0 ? (
        <RecipientsTable
          recipients={items}
          onEdit={(recipient) => show({ kind: 'edit', recipient })}
          onStatus={(recipient) => show({ kind: 'status', recipient })}
        />
      ) : null}
      {open?.kind === 'edit' ? (
        <RecipientDialog key={open.recipient?.id ?? 'new'} recipient={open.recipient} onClose={() => setOpen(null)} onSaved={finish} />
      ) : null}
      {open?.kind === 'status' ? <StatusDialog key={open.recipient.id} recipient={open.recipient} onClose={() => setOpen(null)} onDone={finish} /> : null}
    </section>
  );
}
