import { formatMoney } from '@strongroom/contracts/money.ts';
import type { Dispute } from '@strongroom/contracts/disputes.ts';
import { formatBankDate } from './dispute-dates.ts';

/** The dates a report will change by, as the bank answered them, in sentences that fit its status. */
export function disputeDateSentences(dispute: Dispute): string[] {
  const creditBy = formatBankDate(dispute.provisionalCreditBy);
  const resolveBy = formatBankDate(dispute.resolveBy);
  const amount = formatMoney(Math.abs(dispute.amountCents));
  switch (dispute.status) {
    case 'submitted':
    case 'investigating':
      return [`If we have not finished by ${creditBy}, we give you provisional credit of ${amount} by then.`, `We finish by ${resolveBy}.`];
    case 'provisionally_credited':
      return [`We gave you provisional credit of ${formatMoney(dispute.provisionalCreditCents)} while we investigate.`, `We finish by ${resolveBy}.`];
    case 'denied':
      return dispute.reversalOn
        ? [`The provisional credit of ${formatMoney(dispute.provisionalCreditCents)} is taken back on ${formatBankDate(dispute.reversalOn)}.`]
        : [];
    case 'resolved':
    case 'withdrawn':
      return [];
  }
}

/** Those sentences as a paragraph each. */
export function DisputeDates({ dispute, className }: { dispute: Dispute; className?: string }) {
  const sentences = disputeDateSentences(dispute);
  if (sentences.length === 0) return null;
  return (
    <div className={className}>
      {sentences.map((sentence) => (
        <p key={sentence}>{sentence}</p>
      ))}
    </div>
  );
}
