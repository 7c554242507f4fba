import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Transaction } from '@strongroom/contracts/transactions.ts';
import { ReportFields, offersCardReplacement } from './report-fields.tsx';
import { reportFormDefaults, reportFormSchema, type ReportChecked, type ReportFormValues } from './report-form-schema.ts';
import { ReportReview } from './report-review.tsx';
import { ReportSent } from './report-sent.tsx';
import { TransactionSummary } from './transaction-summary.tsx';
import { useEvidenceChoice } from './use-evidence-choice.ts';
import { useReportSubmission } from './use-report-submission.ts';

/** The report of one transaction: the form, then the review, then the bank's answer. */
export function ReportProblem({ transaction }: { transaction: Transaction }) {
  const form = useForm<ReportFormValues, unknown, ReportChecked>({ resolver: zodResolver(reportFormSchema), defaultValues: reportFormDefaults });
  const evidence = useEvidenceChoice();
  const submission = useReportSubmission();
  const [reviewing, setReviewing] = useState<ReportChecked | null>(null);

  if (submission.data) return <ReportSent outcome={submission.data} />;
  if (reviewing) {
    return (
      <ReportReview
        transaction={transaction}
        values={reviewing}
        files={evidence.files}
        sending={submission.isPending}
        error={submission.error}
        onChange={() => {
          submission.reset();
          setReviewing(null);
        }}
        onSend={() =>
          submission.mutate({
            request: {
              transferId: transaction.transferId,
              reason: reviewing.reason,
              description: reviewing.description,
              replaceCard: offersCardReplacement(transaction, reviewing.reason) && reviewing.replaceCard,
            },
            files: evidence.files,
          })
        }
      />
    );
  }
  return (
    <>
      <TransactionSummary transaction={transaction} />
      <ReportFields transaction={transaction} form={form} evidence={evidence} onReview={setReviewing} />
    </>
  );
}
