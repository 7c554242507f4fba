import {
  customerDetailLimits,
  customerSearchLimits,
  freezeCustomerMessageLimits,
  type CustomerDetail,
  type CustomerSummary,
  type FreezeState,
} from '@strongroom/contracts/staff-customers.ts';
import { transactionListQuerySchema } from '@strongroom/contracts/transactions.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import { centsToJson } from '../../platform/money.ts';
import { notifyCustomer } from '../../platform/notify.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import { endAllSessions } from '../../platform/session.ts';
import { accountsWithBalances } from '../accounts/service.ts';
import { cardsOf, type CardDependencies } from '../cards/service.ts';
import { currentAddress } from '../contact-details/service.ts';
import { presentCustomerContact } from '../customers/service.ts';
import { customerLoans } from '../loans/service.ts';
import { listTransactions } from '../history/service.ts';
import { recentNotifications } from '../notifications/service.ts';
import {
  endSessionByHandle,
  findCustomerProfile,
  insertCustomerFreeze,
  insertFreeze,
  latestIdentityReview,
  liftFreeze,
  liveSessions,
  newestCustomers,
  openFreeze,
  searchCustomers,
  sessionHandleBytes,
  type CustomerSummaryRow,
} from './repository.ts';

/**
 * Customer care (issue 12, "Customers"): staff find a customer, see what they need to help them on
 * one screen, end their sessions and freeze or unfreeze them. The freeze check every money route
 * calls is `platform/account-freeze.ts` (re-exported here for the modules that come later).
 */
export { assertNotFrozen, refuseWhenFrozen } from '../../platform/account-freeze.ts';

export interface CustomerCareDependencies {
  db: Database;
  liveEvents: LiveEvents;
  /** For the customer's cards on their page (masked: last four only); without it the page lists none. */
  cards?: CardDependencies;
}

function presentSummary(row: CustomerSummaryRow): CustomerSummary {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    identityStatus: row.identity_status,
    frozen: row.frozen,
    createdAt: row.created_at.toISOString(),
  };
}

export async function findCustomers(db: Queryable, text: string | undefined): Promise<CustomerSummary[]> {
  const rows =
    text === undefined ? await newestCustomers(db, customerSearchLimits.maxResults) : await searchCustomers(db, text, customerSearchLimits.maxResults);
  return rows.map(presentSummary);
}

/** An unknown customer and a malformed id answer alike: 404. */
async function requireCustomerProfile(db: Queryable, customerId: string) {
  const profile = isUuid(customerId) ? await findCustomerProfile(db, customerId) : undefined;
  if (!profile) throw new AppError('not_found', 'No such customer');
  return profile;
}

export async function freezeStateOf(db: Queryable, customerId: string): Promise<FreezeState> {
  const freeze = await openFreeze(db, customerId);
  return freeze
    ? {
        frozen: true,
        reason: freeze.reason,
        customerMessage: freeze.customer_message,
        frozenBy: freeze.frozen_by_email,
        frozenAt: freeze.frozen_at.toISOString(),
      }
    : { frozen: false, reason: null, customerMessage: null, frozenBy: null, frozenAt: null };
}

/** Everything staff see of one customer; with `cards`, their cards (last four only, never a PAN or CVV) too. */
export async function customerDetail(db: Database, customerId: string, cards?: CardDependencies): Promise<CustomerDetail> {
  const profile = await requireCustomerProfile(db, customerId);
  const review = await latestIdentityReview(db, customerId);
  const accounts = await accountsWithBalances(db, customerId, review?.status === 'approved');
  const transactions = await listTransactions(db, customerId, transactionListQuerySchema.parse({ limit: customerDetailLimits.transactions }));
  const sessions = await liveSessions(db, customerId, customerDetailLimits.sessions);
  return {
    profile: { ...presentCustomerContact(profile), createdAt: profile.created_at.toISOString() },
    identity: {
      status: review?.status ?? 'not_submitted',
      reason: review?.reason ?? null,
      idNumberMasked: review ? `•••• ${review.id_number_last4}` : null,
      country: review?.country ?? null,
      submittedAt: review?.submitted_at.toISOString() ?? null,
    },
    accounts: accounts.map((account) => ({
      ...account,
      balanceCents: centsToJson(account.balanceCents),
      availableCents: centsToJson(account.availableCents),
      pendingDepositsCents: centsToJson(account.pendingDepositsCents),
      pendingDepositsAvailableAt: account.pendingDepositsAvailableAt?.toISOString() ?? null,
    })),
    transactions: transactions.items,
    sessions: sessions.map((session) => ({
      id: session.handle,
      device: session.user_agent,
      ip: session.ip,
      createdAt: session.created_at.toISOString(),
      lastSeenAt: session.last_seen_at.toISOString(),
    })),
    notifications: await recentNotifications(db, customerId, customerDetailLimits.notifications),
    freeze: await freezeStateOf(db, customerId),
    address: await currentAddress(db, customerId),
    cards: cards ? await cardsOf(cards, customerId) : [],
    loans: (await customerLoans(db, customerId)).items,
  };
}

const sessionHandlePattern = new RegExp(`^[0-9a-f]{${sessionHandleBytes * 2}}$`);

export async function endCustomerSession(db: Database, actor: StaffActor, customerId: string, sessionHandle: string, reason: string): Promise<void> {
  await requireCustomerProfile(db, customerId);
  await db.transaction(async (tx) => {
    const ended = sessionHandlePattern.test(sessionHandle) && (await endSessionByHandle(tx, customerId, sessionHandle));
    if (!ended) throw new AppError('not_found', 'No such live session');
    await recordAudit(
      tx,
      auditEntryOf(actor, { action: 'customer.session_end', subject: customerId, outcome: 'success', details: { session: sessionHandle, reason } }),
    );
  });
}

export async function endAllCustomerSessions(db: Database, actor: StaffActor, customerId: string, reason: string): Promise<number> {
  await requireCustomerProfile(db, customerId);
  return db.transaction(async (tx) => {
    const ended = await endAllSessions(tx, 'customer', customerId);
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.sessions_end_all', subject: customerId, outcome: 'success', details: { ended, reason } }));
    return ended;
  });
}

/**
 * The notification of a staff freeze: what a freeze means, then the customer message staff chose.
 * Migration 0030 rewrote the notifications of earlier freezes to this text with the neutral message.
 */
export function frozenNotificationText(customerMessage: string): string {
  return `We have frozen your account: you can sign in and see everything, but no money can move until the freeze is lifted. ${customerMessage}`;
}

/** What staff decide when they freeze: the internal reason, and what the customer is told instead of it. */
export interface FreezeDecision {
  reason: string;
  customerMessage: string;
}

/**
 * Freezing ends every session of the customer's (they may sign in again, to read), refuses money
 * from then on, tells the customer the customer message (never the internal reason: decision 053),
 * and is audited with both: all or nothing.
 */
export async function freezeCustomer(
  dependencies: CustomerCareDependencies,
  actor: StaffActor,
  customerId: string,
  { reason, customerMessage }: FreezeDecision,
): Promise<FreezeState> {
  const { db } = dependencies;
  await requireCustomerProfile(db, customerId);
  await db.transaction(async (tx) => {
    if (!(await insertFreeze(tx, customerId, actor.staffId, reason, customerMessage))) throw new AppError('conflict', 'This customer is already frozen');
    const ended = await endAllSessions(tx, 'customer', customerId);
    await notifyCustomer(tx, { customerId, kind: 'account_frozen', name: 'Your account is frozen', text: frozenNotificationText(customerMessage) });
    await recordAudit(
      tx,
      auditEntryOf(actor, { action: 'customer.freeze', subject: customerId, outcome: 'success', details: { reason, customerMessage, sessionsEnded: ended } }),
    );
  });
  dependencies.liveEvents.publish(customerId, 'notifications');
  return freezeStateOf(db, customerId);
}

export async function unfreezeCustomer(dependencies: CustomerCareDependencies, actor: StaffActor, customerId: string, reason: string): Promise<FreezeState> {
  const { db } = dependencies;
  await requireCustomerProfile(db, customerId);
  await db.transaction(async (tx) => {
    if (!(await liftFreeze(tx, customerId, actor.staffId, reason))) throw new AppError('conflict', 'This customer is not frozen');
    await notifyCustomer(tx, {
      customerId,
      kind: 'account_unfrozen',
      name: 'Your account is no longer frozen',
      text: 'We have lifted the freeze on your account: you can move money again.',
    });
    await recordAudit(tx, auditEntryOf(actor, { action: 'customer.unfreeze', subject: customerId, outcome: 'success', details: { reason } }));
  });
  dependencies.liveEvents.publish(customerId, 'notifications');
  return freezeStateOf(db, customerId);
}

/**
 * "This wasn't me" (issue 15): the customer freezes their own money movement, inside the caller's
 * transaction. Staff lift it in the console as they lift their own. False when a freeze was
 * already open (staff's, or an earlier report's): the account stays frozen either way.
 */
export async function freezeOnCustomersSay(tx: Queryable, customerId: string, reason: string): Promise<boolean> {
  // The customer's own report is no secret from them: their banner says what they reported.
  const frozen = await insertCustomerFreeze(tx, customerId, reason, reason.slice(0, freezeCustomerMessageLimits.maxLength));
  if (frozen) {
    await notifyCustomer(tx, {
      customerId,
      kind: 'account_frozen',
      name: 'You froze your account',
      text: 'At your request no money can move from your account until our team has checked it with you and lifts the freeze. You can still sign in and see everything.',
      link: '/messages',
    });
  }
  return frozen;
}

/** One customer as staff see them, the look itself audited (`customer.view`). */
export async function viewCustomer(dependencies: CustomerCareDependencies, actor: StaffActor, customerId: string): Promise<CustomerDetail> {
  const detail = await customerDetail(dependencies.db, customerId, dependencies.cards);
  await recordAudit(dependencies.db, auditEntryOf(actor, { action: 'customer.view', subject: detail.profile.id, outcome: 'success' }));
  return detail;
}
