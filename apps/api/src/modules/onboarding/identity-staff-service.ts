import type {
  IdentityDecisionRequest,
  IdentityReview,
  IdentityReviewList,
  IdentityReviewResponse,
  IdentityReviewStatus,
} from '@strongroom/contracts/staff-identity.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { decrypt } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, keysetPage } from '../../platform/keyset-cursor.ts';
import type { LiveEvents } from '../../platform/live-events.ts';
import type { Mailer } from '../../platform/messaging/mailer.ts';
import { isUuid } from '../../platform/path-parameters.ts';
import { auditEntryOf, type StaffActor } from '../../platform/request-actor.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { duplicatesOf, referralBonusOf } from '../referrals/service.ts';
import { decideIdentity } from './identity-review.ts';
import {
  findIdentityReview,
  findIdNumberEncrypted,
  findStoredFile,
  identityQueuePageSize,
  listIdentityReviews,
  type IdentityReviewRow,
} from './identity-reviews-repository.ts';

/**
 * The identity queue as staff work it (issue 12, `identity.decide`): the routes in staff-routes.ts
 * speak HTTP, this file reads the reviews, audits each look at a document or an ID number, and decides.
 */
export interface IdentityStaffDependencies {
  db: Database;
  storage: FileStorage;
  mailer: Mailer;
  liveEvents: LiveEvents;
  config: Pick<Config, 'bankName' | 'secrets'>;
}

function presentReview(row: IdentityReviewRow): IdentityReview {
  return {
    id: row.id,
    customerId: row.customer_id,
    name: `${row.first_name} ${row.last_name}`,
    email: row.email,
    country: row.country,
    state: row.state,
    address: row.address,
    city: row.city,
    zipCode: row.zip_code,
    dateOfBirth: row.date_of_birth,
    idType: row.id_type,
    idNumberLast4: row.id_number_last4,
    status: row.status,
    reason: row.reason,
    submittedAt: row.submitted_at.toISOString(),
    decidedAt: row.decided_at?.toISOString() ?? null,
    decidedBy: row.decided_by,
    hasDocument: row.document_file_id !== null,
    hasProfilePhoto: row.profile_photo_file_id !== null,
  };
}

async function reviewOf(db: Database, id: string): Promise<IdentityReviewRow> {
  const review = isUuid(id) ? await findIdentityReview(db, id) : undefined;
  if (!review) throw new AppError('not_found', 'No such identity review');
  return review;
}

/** One page of the queue in `status`, after the position `cursor` names. */
export async function identityReviewPage(db: Database, status: IdentityReviewStatus, cursor: string | undefined): Promise<IdentityReviewList> {
  const { rows, total } = await listIdentityReviews(db, status, decodeCursor(cursor));
  const { page, nextCursor } = keysetPage(rows, identityQueuePageSize);
  return { items: page.map(presentReview), nextCursor, total };
}

/** The facts for the decision on one screen: the review, who else shares this identity, and the referral bonus it would pay. */
export async function identityReviewDetail(db: Database, id: string): Promise<IdentityReviewResponse> {
  const row = await reviewOf(db, id);
  const [duplicates, referralBonus] = await Promise.all([duplicatesOf(db, row.customer_id), referralBonusOf(db, row.customer_id)]);
  return { review: presentReview(row), duplicates, referralBonus };
}

/** The review's document or its customer's profile photo, each look audited. */
export async function identityReviewImage(
  dependencies: Pick<IdentityStaffDependencies, 'db' | 'storage'>,
  actor: StaffActor,
  reviewId: string,
  what: 'document' | 'profile_photo',
): Promise<{ bytes: Buffer; contentType: string; fileName: string }> {
  const { db } = dependencies;
  const review = await reviewOf(db, reviewId);
  const fileId = what === 'document' ? review.document_file_id : review.profile_photo_file_id;
  const file = fileId ? await findStoredFile(db, fileId) : undefined;
  if (!file) throw new AppError('not_found', what === 'document' ? 'This review has no document' : 'This customer has no profile photo');
  const bytes = await dependencies.storage.get(file.storage_key);
  await recordAudit(db, auditEntryOf(actor, { action: `identity.${what}_viewed`, subject: review.id, outcome: 'success' }));
  return { bytes, contentType: file.content_type, fileName: `${what}.${file.content_type === 'image/png' ? 'png' : 'jpg'}` };
}

/** The review's full ID number, decrypted for a stated reason and audited. */
export async function revealIdNumber(
  dependencies: Pick<IdentityStaffDependencies, 'db' | 'config'>,
  actor: StaffActor,
  reviewId: string,
  reason: string,
): Promise<string> {
  const encrypted = isUuid(reviewId) ? await findIdNumberEncrypted(dependencies.db, reviewId) : undefined;
  if (!encrypted) throw new AppError('not_found', 'No such identity review');
  const idNumber = decrypt(dependencies.config.secrets.encryptionKey, encrypted).toString('utf8');
  await recordAudit(
    dependencies.db,
    auditEntryOf(actor, { action: 'identity.id_number_revealed', subject: reviewId, outcome: 'success', details: { reason } }),
  );
  return idNumber;
}

/** A staff member's decision on the review, once; the review as it now stands. */
export async function decideIdentityReviewAsStaff(
  dependencies: IdentityStaffDependencies,
  actor: StaffActor,
  reviewId: string,
  request: IdentityDecisionRequest,
): Promise<IdentityReviewResponse> {
  const { db } = dependencies;
  const review = await reviewOf(db, reviewId);
  const outcome = await decideIdentity(
    { db, mailer: dependencies.mailer, bankName: dependencies.config.bankName, liveEvents: dependencies.liveEvents },
    {
      reviewId: review.id,
      decision: request.decision === 'approve' ? 'approved' : 'rejected',
      reason: request.reason,
      decidedBy: actor,
    },
  );
  if (outcome === 'already_decided') throw new AppError('already_decided', 'This review was already decided');
  return identityReviewDetail(db, review.id);
}
