import type { SandboxStaffSignIn, StaffEnrolment } from '@strongroom/contracts/staff.ts';
import { findStaffByEmail } from './repository.ts';
import { createStaffMember, currentCodeOf, type StaffDependencies } from './service.ts';

/**
 * The sandbox's bootstrap admin (docs/product.md section 4): created at the first start, its sign-in and
 * authenticator secret printed then, and offered on `/ops/login` like the demo customer. Sandbox
 * only: production creates staff with `npm run ops -- create-staff`.
 */
export const sandboxAdmin = { email: 'admin@strongroom.test', password: 'strongroom-admin' } as const;

/** The new admin's enrolment the first time; undefined when it exists already. */
export async function ensureSandboxAdmin(dependencies: StaffDependencies): Promise<StaffEnrolment | undefined> {
  if (await findStaffByEmail(dependencies.db, sandboxAdmin.email)) return undefined;
  return createStaffMember(dependencies, { ...sandboxAdmin, role: 'admin' });
}

export async function sandboxAdminSignIn(
  dependencies: StaffDependencies,
  atMs: number,
  code: (secret: string, atMs: number) => string,
): Promise<SandboxStaffSignIn | undefined> {
  const current = await currentCodeOf(dependencies, sandboxAdmin.email, atMs, code);
  return current ? { ...sandboxAdmin, code: current } : undefined;
}
