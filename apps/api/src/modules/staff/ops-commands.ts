import QRCode from 'qrcode';
import { parseArgs } from 'node:util';
import { staffRoleSchema } from '@strongroom/contracts/staff.ts';
import { emailField } from '@strongroom/contracts/fields.ts';
import { passwordField } from '@strongroom/contracts/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';
import { createStaffMember, StaffExistsError } from './service.ts';

/**
 * `npm run ops -- create-staff --email E --password P --role R` (docs/product.md section 6): prints
 * `{ staffId, role, totpSecret, otpauthUri }` on standard output, once, and the same URI as a QR
 * code on standard error for an authenticator app to scan.
 */
export const createStaffCommand: OpsCommand = {
  name: 'create-staff',
  summary: 'Create a staff member of the back office; prints the authenticator secret once',
  usage: 'create-staff --email E --password P --role support|compliance|operations|admin',
  async run({ database, config }, args) {
    const { values, positionals } = parseArgs({
      args,
      options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0 || !values.email || !values.password || !values.role) throw new OpsUsageError('--email, --password and --role are required');
    const email = emailField.safeParse(values.email);
    if (!email.success) throw new OpsUsageError('--email is not an email address');
    const password = passwordField.safeParse(values.password);
    if (!password.success) throw new OpsUsageError(`--password: ${password.error.issues[0]?.message ?? 'not valid'}`);
    const role = staffRoleSchema.safeParse(values.role);
    if (!role.success) throw new OpsUsageError('--role is one of support, compliance, operations, admin');
    const db = await database();
    try {
      const created = await createStaffMember({ db, config }, { email: email.data, password: password.data, role: role.data }, (staffId) => ({
        actorType: 'system',
        actorId: 'ops-cli',
        action: 'staff.create',
        subject: staffId,
        outcome: 'success',
        details: { role: role.data },
      }));
      const { staffId, totpSecret, otpauthUri } = created;
      return {
        ...ok({ staffId, role: created.role, totpSecret, otpauthUri }),
        notice: `Scan this with the authenticator app (it is not shown again):\n${await QRCode.toString(otpauthUri, { type: 'terminal', small: true })}`,
      };
    } catch (error) {
      if (error instanceof StaffExistsError) return { exitCode: 1, output: error.message };
      if (error instanceof AppError) throw new OpsUsageError(`--password: ${error.details.fields?.password ?? error.message}`);
      throw error;
    }
  },
};
