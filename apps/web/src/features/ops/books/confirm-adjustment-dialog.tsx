import { adjustmentFourEyesCents } from '@strongroom/contracts/books.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { formatBankDate } from '../disputes/dispute-words.ts';
import type { AdjustableOption, AdjustmentFormValues } from './adjustment-form-schema.ts';

export interface ConfirmAdjustmentDialogProps {
  values: AdjustmentFormValues;
  accounts: readonly AdjustableOption[];
  busy: boolean;
  failure: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
}

/** The last look before an entry that cannot be undone (only reversed by another): the amount, both accounts, the day and the reason. */
export function ConfirmAdjustmentDialog({ values, accounts, busy, failure, onConfirm, onClose }: ConfirmAdjustmentDialogProps) {
  const nameOf = (key: string) => accounts.find((account) => account.key === key)?.name ?? key;
  const amount = formatMoney(values.amount);
  const needsSecond = values.amount >= adjustmentFourEyesCents;
  return (
    <Dialog
      open
      onClose={onClose}
      dismissible={!busy}
      title={`Post an adjusting entry of ${amount}: debit ${nameOf(values.debitAccount)}, credit ${nameOf(values.creditAccount)}?`}
      description="A posted entry cannot be undone: a mistake is corrected by another entry."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Back
          </Button>
          <Button onClick={onConfirm} loading={busy}>
            {needsSecond ? `Ask for approval of ${amount}` : `Post ${amount}`}
          </Button>
        </>
      }
    >
      <ul>
        <li>Booked on: {values.postedOn ? formatBankDate(values.postedOn) : 'the open day'}</li>
        <li>Reason: {values.reason}</li>
        {needsSecond ? <li>It waits for a second finance member&rsquo;s approval ({formatMoney(adjustmentFourEyesCents)} or more).</li> : null}
      </ul>
      {failure ? (
        <Notice tone="error" role="alert">
          {failure}
        </Notice>
      ) : null}
    </Dialog>
  );
}
