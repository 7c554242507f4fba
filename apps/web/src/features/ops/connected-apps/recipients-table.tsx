import { Pencil, Power, PowerOff } from 'lucide-react';
import type { DataRecipient } from '@strongroom/contracts/connected-apps.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { scopeLabels } from './recipient-form-schema.ts';

/** The registered apps, each with what it may ask for, its consents in force, and Edit and Disable (or Enable). */
export function RecipientsTable({
  recipients,
  onEdit,
  onStatus,
}: {
  recipients: readonly DataRecipient[];
  onEdit: (recipient: DataRecipient) => void;
  onStatus: (recipient: DataRecipient) => void;
}) {
  const columns: readonly TableColumn<DataRecipient>[] = [
    {
      key: 'name',
      header: 'App',
      cell: (row) => (
        <>
          <span className="connected-apps__name">{row.name}</span>
          <span className="connected-apps__muted">{row.contactEmail}</span>
        </>
      ),
    },
    { key: 'client', header: 'Client id', cell: (row) => <code className="connected-apps__code">{row.clientId}</code> },
    {
      key: 'scopes',
      header: 'Data allowed',
      cell: (row) => (
        <ul className="connected-apps__scopes">
          {row.allowedScopes.map((scope) => (
            <li key={scope}>{scopeLabels[scope]}</li>
          ))}
        </ul>
      ),
    },
    { key: 'consents', header: 'Connected customers', numeric: true, cell: (row) => row.activeConsents },
    {
      key: 'status',
      header: 'Status',
      cell: (row) => (row.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="neutral">Disabled</Badge>),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (row) => (
        <div className="connected-apps__actions">
          <Button size="sm" variant="secondary" onClick={() => onEdit(row)} aria-label={`Edit ${row.name}`}>
            <Pencil aria-hidden="true" size={16} />
            Edit
          </Button>
          <Button
            size="sm"
            variant={row.enabled ? 'danger' : 'secondary'}
            onClick={() => onStatus(row)}
            aria-label={`${row.enabled ? 'Disable' : 'Enable'} ${row.name}`}
          >
            {row.enabled ? <PowerOff aria-hidden="true" size={16} /> : <Power aria-hidden="true" size={16} />}
            {row.enabled ? 'Disable' : 'Enable'}
          </Button>
        </div>
      ),
    },
  ];
  return <Table caption="Connected apps" captionHidden columns={columns} rows={recipients} rowKey={(row) => row.id} />;
}
