import { z } from 'zod';
import type { JobRunner } from '../../platform/jobs/job-runner.ts';
import { releaseExpiredHolds } from './authorization-holds.ts';
import type { CardDependencies } from './card-dependencies.ts';
import { autoApprovalReason, autoApprovedCreditLimitCents, decideCard } from './card-decisions.ts';

export const cardAutoApproveJobKind = 'cards.auto-approve';
export const cardHoldReleaseJobKind = 'cards.release-expired-holds';
/** How often holds the ledger expired are turned into "Hold released" lines. */
export const cardHoldReleaseIntervalMs = 30_000;
const autoApprovePayloadSchema = z.object({ cardId: z.uuid() });

/**
 * The sandbox's automatic approval (CARD_AUTO_APPROVE_SECONDS; config.ts leaves it undefined in
 * production, so nothing is ever queued there): a debit card as it is, a credit card with the
 * sandbox's $1,000.00 limit, stated in the decision's reason. A card decided meanwhile stays as decided.
 */
export function registerCardJobs(jobs: JobRunner, dependencies: CardDependencies): void {
  jobs.register(cardAutoApproveJobKind, async (payload) => {
    const { cardId } = autoApprovePayloadSchema.parse(payload);
    await decideCard(dependencies, {
      cardId,
      decision: 'approve',
      reason: autoApprovalReason,
      creditLimitCents: Number(autoApprovedCreditLimitCents),
      decidedBy: 'system',
      audit: (entry) => ({ actorType: 'system', ...entry, details: { ...entry.details, creditLimitReason: 'sandbox default credit limit $1,000.00' } }),
    });
  });
  jobs.register(cardHoldReleaseJobKind, async () => {
    await releaseExpiredHolds(dependencies);
  });
  jobs.every(cardHoldReleaseJobKind, cardHoldReleaseIntervalMs);
}
