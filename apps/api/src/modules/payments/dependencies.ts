import type { Config } from '../../config.ts';
import type { Clock } from '../../db/clock.ts';
import type { Database } from '../../db/database.ts';
import type { TransferBatcher } from '../../ledger/batcher.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { PaymentStageTimer } from './stage-timings.ts';
import type { SmsSender } from '../../platform/messaging/sms-sender.ts';
import type { StepUpMethods } from '../step-up/service.ts';
import type { OwnCardLookup } from './plan.ts';
import type { PaymentRow } from './repository.ts';

/** What the payment path needs from the app; shared by the request (service.ts), settlement and the rail's outcomes. */
export interface PaymentDependencies {
  db: Database;
  ledger: TransferBatcher;
  config: Config;
  sms: SmsSender;
  /** The ways a customer may answer a step-up besides SMS (app.ts; docs/decisions/063). */
  stepUpMethods: StepUpMethods;
  liveEvents?: LiveEvents;
  /** A card push to a card of this bank settles at once (issue 13); absent, every card push goes to the card rail. */
  ownCard?: OwnCardLookup;
  /** Where money requests spend their time, for /metrics; absent in the ops CLI and most tests. */
  stages?: PaymentStageTimer;
  /** Asks the settlement job to run now (instant rails); absent in the ops CLI. */
  settleSoon?: () => Promise<void>;
  /** What the money rules read as now (review rules, settlement times); absent, the machine's time (db/clock.ts). */
  clock?: Clock;
}

/** Tells the payer's open screens (and the recipient's, when it is someone else) that balances and notifications changed. */
export function publishPaymentChange(dependencies: Pick<PaymentDependencies, 'liveEvents'>, row: PaymentRow, recipientCustomerId: string | null): void {
  dependencies.liveEvents?.publish(row.customer_id, 'accounts');
  dependencies.liveEvents?.publish(row.customer_id, 'notifications');
  if (recipientCustomerId && recipientCustomerId !== row.customer_id) {
    dependencies.liveEvents?.publish(recipientCustomerId, 'accounts');
    dependencies.liveEvents?.publish(recipientCustomerId, 'notifications');
  }
}
