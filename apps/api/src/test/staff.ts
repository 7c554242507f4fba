import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createStaffMember } from '../modules/staff/service.ts';
import { TestBrowser } from './client.ts';

export const testStaffPassword = 'a long staff passphrase';

export interface TestStaffMember {
  id: string;
  email: string;
  password: string;
  role: StaffRole;
  totpSecret: string;
}

/** A staff member as `create-staff` makes one, with their authenticator secret. */
export async function createTestStaff(db: Database, config: Config, role: StaffRole, email = `${role}-${randomUUID()}@bank.test`): Promise<TestStaffMember> {
  const created = await createStaffMember({ db, config }, { email, password: testStaffPassword, role });
  return { id: created.staffId, email, password: testStaffPassword, role, totpSecret: created.totpSecret };
}

/** A browser signed in to the back office as a new staff member of `role` (the session made directly). */
export async function staffBrowser(
  app: FastifyInstance,
  db: Database,
  config: Config,
  role: StaffRole,
): Promise<{ browser: TestBrowser; member: TestStaffMember }> {
  const member = await createTestStaff(db, config, role);
  const browser = await new TestBrowser(app).signInAsStaff(db, member.id);
  return { browser, member };
}
