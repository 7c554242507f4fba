import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { maxDisputeEvidenceBytes, maxDisputeEvidenceFiles, type DisputeDetail } from '@strongroom/contracts/disputes.ts';
import { sqlInstant } from '../../db/clock.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { cleanImage } from '../../platform/uploads.ts';
import { presentEvidence } from './presenter.ts';
import { countEvidence, findEvidence, insertDisputeEvent, insertEvidence, lockDispute, touchDispute, type DisputeEvidenceRow } from './repository.ts';
import { customerDispute, openStatuses, type DisputeDependencies } from './service.ts';

/**
 * A dispute's evidence: an image (PNG, JPEG) or a PDF, told by its bytes (never its name or the
 * type the browser declared), checked and stored as identity documents are (platform/uploads.ts,
 * storage.ts): an image is decoded and encoded again, which drops what hides in it; a file is
 * encrypted in storage under a key the server made, never in the database.
 */
export const evidenceField = 'file';
const extensions = { 'image/png': 'png', 'image/jpeg': 'jpg', 'application/pdf': 'pdf' } as const;
type EvidenceType = keyof typeof extensions;

const wrongType = 'Send an image (PNG or JPEG) or a PDF.';
const tooLarge = `The file must be ${maxDisputeEvidenceBytes / (1024 * 1024)} MB or smaller.`;

/** The file's bytes as they will be stored, and its type from its magic numbers. */
async function checkedFile(bytes: Buffer | undefined): Promise<{ bytes: Buffer; contentType: EvidenceType }> {
  if (!bytes || bytes.length === 0) {
    throw new AppError('validation_failed', 'Some fields are not valid', { fields: { [evidenceField]: 'Choose a file to send.' } });
  }
  if (bytes.length > maxDisputeEvidenceBytes) throw new AppError('payload_too_large', tooLarge);
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  if (detected === 'application/pdf') return { bytes, contentType: detected };
  if (detected !== 'image/png' && detected !== 'image/jpeg') throw new AppError('unsupported_media_type', wrongType);
  try {
    return await cleanImage(evidenceField, bytes);
  } catch {
    // Bytes that start like an image but do not decode as one are not an image.
    throw new AppError('unsupported_media_type', wrongType);
  }
}

/** `POST /disputes/{id}/evidence`: one file, while the case is open, at most `maxDisputeEvidenceFiles` of them. */
export async function addEvidence(
  dependencies: DisputeDependencies,
  actor: CustomerActor,
  disputeId: string,
  readUpload: () => Promise<{ fieldName: string; bytes: Buffer } | undefined>,
): Promise<DisputeDetail['evidence'][number]> {
  const { db, storage } = dependencies;
  // Whose dispute it is comes first: someone else's answers 404 before the form is read.
  await customerDispute(db, actor.customerId, disputeId);
  const upload = await readUpload();
  const bytes = upload?.fieldName === evidenceField ? upload.bytes : undefined;
  const file = await checkedFile(bytes);
  const storageKey = randomUUID();
  await storage.put(storageKey, file.bytes);
  try {
    return await db.transaction(async (tx) => {
      const locked = await lockDispute(tx, disputeId);
      if (!locked) throw new AppError('not_found', 'No such dispute');
      if (!openStatuses.has(locked.status)) throw new AppError('dispute_state', 'This dispute is decided or withdrawn, so it takes no more evidence.');
      const count = await countEvidence(tx, disputeId);
      if (count >= maxDisputeEvidenceFiles) {
        throw new AppError('conflict', `A dispute holds at most ${maxDisputeEvidenceFiles} files. Write to us by secure message to send more.`);
      }
      const now = sqlInstant(dependencies.clock);
      const row = await insertEvidence(
        tx,
        {
          id: randomUUID(),
          disputeId,
          fileName: `evidence-${count + 1}.${extensions[file.contentType]}`,
          contentType: file.contentType,
          byteSize: file.bytes.length,
          storageKey,
        },
        now,
      );
      await insertDisputeEvent(tx, { disputeId, kind: 'evidence_added', text: `You sent a file (${row.file_name}).` }, now);
      await touchDispute(tx, disputeId, now);
      await recordAudit(
        tx,
        auditEntryOf(actor, {
          action: 'dispute.evidence_added',
          subject: disputeId,
          outcome: 'success',
          details: { evidenceId: row.id, contentType: row.content_type },
        }),
      );
      return presentEvidence(row);
    });
  } catch (error) {
    await storage.remove(storageKey);
    throw error;
  }
}

/** The stored file of a piece of evidence with its row; 404 when the dispute or the file is not there. */
export async function evidenceFile(dependencies: Pick<DisputeDependencies, 'db' | 'storage'>, disputeId: string, evidenceId: string) {
  const row = await findEvidence(dependencies.db, disputeId, evidenceId);
  if (!row) throw new AppError('not_found', 'No such file');
  return { row, bytes: await dependencies.storage.get(row.storage_key) };
}

/** `GET /disputes/{id}/evidence/{evidenceId}`: the customer's own file. */
export async function customerEvidenceFile(dependencies: DisputeDependencies, customerId: string, disputeId: string, evidenceId: string) {
  await customerDispute(dependencies.db, customerId, disputeId);
  return evidenceFile(dependencies, disputeId, evidenceId);
}

/**
 * Sends a stored file as a download: its own type (from its bytes at upload), no sniffing, a name
 * the server made, and a CSP that forbids everything, so a browser never runs it as a page.
 */
export function sendEvidence(reply: FastifyReply, file: { row: DisputeEvidenceRow; bytes: Buffer }) {
  return reply
    .type(file.row.content_type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${file.row.file_name}"`)
    .send(file.bytes);
}
