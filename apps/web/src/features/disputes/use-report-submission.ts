import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateDisputeRequest, Dispute } from '@strongroom/contracts/disputes.ts';
import { ApiError } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { createDispute, disputeKeys, uploadEvidence } from './api/disputes.ts';
import { evidenceMessages } from './evidence-check.ts';

export interface EvidenceOutcome {
  file: File;
  /** Why the bank refused the file, in words; null when it was kept. */
  refusal: string | null;
}

export interface ReportOutcome {
  dispute: Dispute;
  evidence: readonly EvidenceOutcome[];
}

/** A file the server refused, in words: its own check of the bytes may refuse what the browser let through. */
export function evidenceRefusal(error: unknown): string {
  if (error instanceof ApiError && error.code === 'unsupported_media_type') return evidenceMessages.wrongType;
  if (error instanceof ApiError && error.code === 'payload_too_large') return evidenceMessages.tooLarge;
  if (error instanceof ApiError) return error.message;
  return 'The file could not be sent. You can add it again from your report.';
}

/**
 * `POST /disputes`, then each file with `POST /disputes/{id}/evidence`, one after the other. The
 * report stands once made: a refused file does not undo it, it is listed with why.
 */
export function useReportSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, files }: { request: CreateDisputeRequest; files: readonly File[] }): Promise<ReportOutcome> => {
      const dispute = await createDispute(request);
      const evidence: EvidenceOutcome[] = [];
      for (const file of files) {
        try {
          await uploadEvidence(dispute.id, file);
          evidence.push({ file, refusal: null });
        } catch (error) {
          evidence.push({ file, refusal: evidenceRefusal(error) });
        }
      }
      return { dispute, evidence };
    },
    onSettled: async (_outcome, _error, { request }) => {
      await queryClient.invalidateQueries({ queryKey: disputeKeys.all });
      if (request.replaceCard) await queryClient.invalidateQueries({ queryKey: queryKeys.cards });
    },
  });
}
