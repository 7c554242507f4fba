import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { Queryable } from '../../db/database.ts';
import { isUuid } from '../../platform/path-parameters.ts';

export interface StaffRow {
  id: string;
  email: string;
  role: StaffRole;
  password_hash: string;
  totp_secret_encrypted: Buffer;
  totp_last_step: string;
  disabled_at: Date | null;
  created_at: Date;
}

export function normalizeStaffEmail(email: string): string {
  return email.trim().toLowerCase();
}

const staffColumns = 'id, email, role, password_hash, totp_secret_encrypted, totp_last_step::text AS totp_last_step, disabled_at, created_at';

export async function findStaffByEmail(db: Queryable, email: string): Promise<StaffRow | undefined> {
  const [row] = await db.query<StaffRow>(`SELECT ${staffColumns} FROM staff WHERE email_normalized = $1`, [normalizeStaffEmail(email)]);
  return row;
}

export async function findStaffById(db: Queryable, id: string): Promise<StaffRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.query<StaffRow>(`SELECT ${staffColumns} FROM staff WHERE id = $1`, [id]);
  return row;
}

/** The new member's id, or undefined when the email is taken. */
export async function insertStaff(
  db: Queryable,
  input: { email: string; passwordHash: string; role: StaffRole; totpSecretEncrypted: Buffer; createdBy?: string },
): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO staff (email, email_normalized, password_hash, role, totp_secret_encrypted, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (email_normalized) DO NOTHING RETURNING id`,
    [input.email.trim(), normalizeStaffEmail(input.email), input.passwordHash, input.role, input.totpSecretEncrypted, input.createdBy ?? null],
  );
  return row?.id;
}

/** Spends a TOTP step: true only if no code of this step or a later one was accepted before (RFC 6238 5.2). */
export async function spendTotpStep(db: Queryable, staffId: string, step: number): Promise<boolean> {
  const rows = await db.query('UPDATE staff SET totp_last_step = $2 WHERE id = $1 AND totp_last_step < $2 RETURNING 1', [staffId, step]);
  return rows.length === 1;
}

export interface StaffListRow {
  id: string;
  email: string;
  role: StaffRole;
  disabled_at: Date | null;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export async function listStaff(db: Queryable): Promise<StaffListRow[]> {
  return db.query<StaffListRow>(
    `SELECT s.id, s.email, s.role, s.disabled_at, s.created_at,
            (SELECT max(created_at) FROM sessions WHERE realm = 'staff' AND subject_id = s.id) AS last_sign_in_at
       FROM staff s ORDER BY s.disabled_at IS NOT NULL, s.email_normalized`,
  );
}

export async function setStaffDisabled(db: Queryable, id: string, disabled: boolean): Promise<boolean> {
  const rows = await db.query(
    disabled
      ? 'UPDATE staff SET disabled_at = now() WHERE id = $1 AND disabled_at IS NULL RETURNING 1'
      : 'UPDATE staff SET disabled_at = NULL WHERE id = $1 AND disabled_at IS NOT NULL RETURNING 1',
    [id],
  );
  return rows.length === 1;
}

export async function setStaffRole(db: Queryable, id: string, role: StaffRole): Promise<StaffRole | undefined> {
  const [row] = await db.query<{ previous: StaffRole }>(
    `UPDATE staff s SET role = $2 FROM staff old WHERE s.id = $1 AND old.id = s.id AND s.role <> $2 RETURNING old.role AS previous`,
    [id, role],
  );
  return row?.previous;
}

export async function replaceTotpSecret(db: Queryable, id: string, totpSecretEncrypted: Buffer): Promise<boolean> {
  const rows = await db.query('UPDATE staff SET totp_secret_encrypted = $2, totp_last_step = 0 WHERE id = $1 RETURNING 1', [id, totpSecretEncrypted]);
  return rows.length === 1;
}

export async function updateStaffPassword(db: Queryable, id: string, passwordHash: string): Promise<void> {
  await db.query('UPDATE staff SET password_hash = $2, password_changed_at = now() WHERE id = $1', [id, passwordHash]);
}

/** What gave a member back-office access (migration 0028); a disable takes access away and is none of these. */
export type StaffAccessGrant = 'created' | 'enabled' | 'role_changed' | 'second_factor_reset';

/** Records a grant; `grantedBy` is null when no staff member made it (the operator's create-staff, the sandbox's admin). */
export async function insertAccessGrant(db: Queryable, grant: { staffId: string; grantedBy: string | null; kind: StaffAccessGrant }): Promise<void> {
  await db.query('INSERT INTO staff_access_grants (staff_id, granted_by, kind) VALUES ($1, $2, $3)', [grant.staffId, grant.grantedBy, grant.kind]);
}

/** Any fixed number: it names the lock under which changes to staff members are taken one at a time. */
const staffChangeLockKey = 7_305_113;

/**
 * Until the transaction ends, no other change to a staff member runs: the last-admin guard counts
 * the active admins and changes one in the same turn, so two admins removing each other at once
 * are first and second, never both first. The rows read after it see every change committed before.
 */
export async function lockStaffChanges(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [staffChangeLockKey]);
}

export async function countActiveAdmins(db: Queryable): Promise<number> {
  const [row] = await db.query<{ count: number }>("SELECT count(*)::integer AS count FROM staff WHERE role = 'admin' AND disabled_at IS NULL");
  return row?.count ?? 0;
}
