import { useState } from 'react';
import type { StaffDispute } from '@strongroom/contracts/disputes.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { DisputeActionDialog } from './dispute-action-dialog.tsx';
import { actionsFor, type DisputeActionKind } from './dispute-action-plan.ts';
import { disputeStatusWords } from './dispute-words.ts';

const buttonLabels: Record<DisputeActionKind, string> = {
  investigate: 'Start investigating',
  'provisional-credit': 'Give provisional credit',
  'request-information': 'Ask the customer',
  resolve: 'Decide for the customer',
  deny: 'Deny',
  approve: 'Approve this decision',
};

/** A decision proposed and waiting for a second staff member: who proposed it is told they wait; anyone else may approve. */
function PendingDecision({ dispute, mine }: { dispute: StaffDispute; mine: boolean }) {
  const pending = dispute.pendingDecision;
  if (!pending) return null;
  const decision = pending.decision === 'customer' ? 'resolve for the customer' : 'deny the claim';
  return (
    <Notice>
      <p>
        <strong>Waiting for a second person.</strong> {mine ? 'You' : 'Another staff member'} proposed to {decision} on {formatDateTime(pending.at)}, with the
        reason &ldquo;{pending.reason}&rdquo;.
      </p>
      <p>{mine ? 'Another staff member must approve it before it is carried out.' : 'You may approve it: it is then carried out.'}</p>
    </Notice>
  );
}

/** The case's actions its state allows, each opening its dialog; what the last one did is said above them. */
export function DisputeActionsPanel({ dispute, staffId }: { dispute: StaffDispute; staffId: string | undefined }) {
  const [open, setOpen] = useState<DisputeActionKind | null>(null);
  const [done, setDone] = useState<{ message: string; awaitingApproval: boolean } | null>(null);
  const actions = actionsFor(dispute, staffId);
  const mine = dispute.pendingDecision !== null && dispute.pendingDecision.by === staffId;
  return (
    <section aria-labelledby="dispute-actions">
      <h2 id="dispute-actions">Actions</h2>
      {done ? (
        <Notice tone={done.awaitingApproval ? 'info' : 'success'} role="status">
          {done.message}
        </Notice>
      ) : null}
      <PendingDecision dispute={dispute} mine={mine} />
      {actions.length === 0 ? (
        <p>No action is open: the case is {disputeStatusWords[dispute.status].toLowerCase()}.</p>
      ) : (
        <div className="dispute-case__actions">
          {actions.map((kind) => (
            <Button
              key={kind}
              variant={kind === 'deny' ? 'danger' : kind === 'resolve' || kind === 'approve' ? 'primary' : 'secondary'}
              onClick={() => {
                setDone(null);
                setOpen(kind);
              }}
            >
              {buttonLabels[kind]}
            </Button>
          ))}
        </div>
      )}
      {open ? (
        <DisputeActionDialog
          kind={open}
          dispute={dispute}
          onClose={() => setOpen(null)}
          onDone={(outcome) => {
            setOpen(null);
            setDone(outcome);
          }}
        />
      ) : null}
    </section>
  );
}
