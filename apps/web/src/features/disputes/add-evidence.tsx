import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useDisputeActions } from './api/disputes.ts';
import { EvidencePicker } from './evidence-picker.tsx';
import { useEvidenceChoice } from './use-evidence-choice.ts';
import { evidenceRefusal } from './use-report-submission.ts';

/** More files for an open report: checked when picked, sent one by one, a refused one shown next to its name. */
export function AddEvidence({ disputeId, room }: { disputeId: string; room: number }) {
  const choice = useEvidenceChoice(room);
  const { addEvidence } = useDisputeActions(disputeId);
  const toast = useToast();
  const [refused, setRefused] = useState<readonly { name: string; refusal: string }[]>([]);
  const [sending, setSending] = useState(false);

  async function send() {
    setSending(true);
    const failures: { name: string; refusal: string }[] = [];
    for (const file of choice.files) {
      try {
        await addEvidence.mutateAsync(file);
      } catch (error) {
        failures.push({ name: file.name, refusal: evidenceRefusal(error) });
      }
    }
    setSending(false);
    setRefused(failures);
    if (failures.length < choice.files.length) toast.show('Your files are added to the report.', 'success');
    choice.clear();
  }

  return (
    <div className="dispute-add-evidence">
      <EvidencePicker choice={choice} label="Add evidence" />
      {refused.length > 0 ? (
        <ul className="dispute-files" aria-label="Files not added">
          {refused.map(({ name, refusal }) => (
            <li key={name} className="dispute-files__item">
              <span className="dispute-files__name">{name}</span>
              <span className="dispute-files__refusal">Not added: {refusal}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {choice.files.length > 0 ? (
        <Button onClick={() => void send()} loading={sending}>
          {choice.files.length === 1 ? 'Send the file' : `Send the ${choice.files.length} files`}
        </Button>
      ) : null}
    </div>
  );
}
