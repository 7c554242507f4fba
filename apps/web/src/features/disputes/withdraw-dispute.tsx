import { useState } from 'react';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useDisputeActions } from './api/disputes.ts';
import { disputeErrorMessage } from './dispute-words.ts';

/** "Withdraw this report", after a confirmation of what it means; offered only before the bank's decision. */
export function WithdrawDispute({ disputeId }: { disputeId: string }) {
  const [open, setOpen] = useState(false);
  const { withdraw } = useDisputeActions(disputeId);
  const toast = useToast();
  function close() {
    setOpen(false);
    withdraw.reset();
  }
  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Withdraw this report
      </Button>
      <ConfirmDialog
        open={open}
        title="Withdraw this report?"
        description={
          <>
            <p>We stop investigating and close the report. Do this if the problem is solved, for example the merchant refunded you.</p>
            <p>If you find later that something is still wrong, you can report the transaction again.</p>
          </>
        }
        confirmLabel="Withdraw the report"
        confirmVariant="danger"
        cancelLabel="Keep the report"
        busy={withdraw.isPending}
        onCancel={close}
        onConfirm={() =>
          withdraw.mutate(undefined, {
            onSuccess: () => {
              close();
              toast.show('Your report is withdrawn.', 'success');
            },
          })
        }
      >
        {withdraw.error ? (
          <Notice tone="error" role="alert">
            <p>{disputeErrorMessage(withdraw.error).words}</p>
          </Notice>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
