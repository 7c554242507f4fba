import { disputeEvidenceTypes, maxDisputeEvidenceBytes, maxDisputeEvidenceFiles } from '@strongroom/contracts/disputes.ts';

/** The file picker's filter; the checks below are what count (and the server checks the bytes again). */
export const evidenceAccept = disputeEvidenceTypes.join(',');

const maxMegabytes = maxDisputeEvidenceBytes / (1024 * 1024);

export const evidenceMessages = {
  wrongType: 'This file is not an image (PNG or JPEG) or a PDF. Choose a photo, a screenshot or a PDF.',
  tooLarge: `This file is larger than ${maxMegabytes} MB. Choose a smaller file, or a photo of a smaller size.`,
  empty: 'This file is empty. Choose another.',
  tooMany: `You can send at most ${maxDisputeEvidenceFiles} files with a report.`,
  hint: `Photos, screenshots or PDFs (receipts, emails with the merchant): at most ${maxDisputeEvidenceFiles} files of ${maxMegabytes} MB each.`,
} as const;

/** What is wrong with a picked file before anything is sent, or undefined: its declared type and its size. */
export function evidenceProblem(file: File): string | undefined {
  if (!disputeEvidenceTypes.some((type) => type === file.type)) return evidenceMessages.wrongType;
  if (file.size > maxDisputeEvidenceBytes) return evidenceMessages.tooLarge;
  if (file.size === 0) return evidenceMessages.empty;
  return undefined;
}

/** A file's size as people read it: `312 KB`, `2.4 MB`. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
