import { useCallback, useState } from 'react';
import { maxDisputeEvidenceFiles } from '@strongroom/contracts/disputes.ts';
import { evidenceMessages, evidenceProblem } from './evidence-check.ts';

/**
 * The evidence files picked so far, and the ones refused with why. A refused file is not kept, so it
 * is never sent; `room` is how many more may still be added (the server keeps the count too).
 */
export function useEvidenceChoice(room: number = maxDisputeEvidenceFiles) {
  const [files, setFiles] = useState<readonly File[]>([]);
  const [refusals, setRefusals] = useState<readonly string[]>([]);

  const add = useCallback(
    (picked: readonly File[]) => {
      const kept = [...files];
      const refused: string[] = [];
      for (const file of picked) {
        const problem = evidenceProblem(file) ?? (kept.length >= room ? evidenceMessages.tooMany : undefined);
        if (problem) refused.push(`${file.name}: ${problem}`);
        else kept.push(file);
      }
      setFiles(kept);
      setRefusals(refused);
    },
    [files, room],
  );

  const remove = useCallback((index: number) => {
    setFiles((current) => current.filter((_, position) => position !== index));
    setRefusals([]);
  }, []);

  const clear = useCallback(() => {
    setFiles([]);
    setRefusals([]);
  }, []);

  return { files, refusals, add, remove, clear };
}

export type EvidenceChoice = ReturnType<typeof useEvidenceChoice>;
