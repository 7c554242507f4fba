import type { Database } from '../../db/database.ts';
import { createTransferBatcher } from '../../ledger/batcher.ts';
import { createOutboxSmsSender } from '../../platform/messaging/sms-sender.ts';
import type { OpsContext } from '../../platform/ops-command.ts';
import { payScheduledBeforeDay } from './service.ts';

/**
 * `npm run ops -- end-of-day --through D` pays every occurrence due up to D exactly once: the
 * registry gives end of day this as what runs first in each business day. A run never asks for a
 * step-up (it was given when the schedule was made), so no code is ever texted: the outbox stands
 * in for the SMS gateway.
 */
export function scheduledPaymentsBeforeDay(context: OpsContext, db: Database): (day: string) => Promise<void> {
  return payScheduledBeforeDay({
    db,
    config: context.config,
    ledger: createTransferBatcher(db),
    sms: createOutboxSmsSender(db),
    stepUpMethods: {},
    ...(context.liveEvents ? { liveEvents: context.liveEvents } : {}),
  });
}
