import { parseArgs } from 'node:util';
import { ok, OpsUsageError, type OpsCommand } from '../../platform/ops-command.ts';
import { listRecentContactMessages } from './repository.ts';

const maximumListed = 200;

/** Until the staff console lists them, operators read contact messages here (D14). */
export const contactMessagesCommand: OpsCommand = {
  name: 'contact-messages',
  summary: 'List the newest messages sent through the contact form',
  usage: 'contact-messages [--limit 20]',
  async run({ database }, args) {
    const { values } = parseArgs({ args, options: { limit: { type: 'string' } }, strict: true });
    const limit = Number(values.limit ?? '20');
    if (!Number.isInteger(limit) || limit < 1 || limit > maximumListed) throw new OpsUsageError(`--limit must be 1 to ${maximumListed}`);
    const rows = await listRecentContactMessages(await database(), limit);
    return ok(
      rows.map((row) => ({
        id: row.id,
        receivedAt: row.created_at.toISOString(),
        name: row.name,
        email: row.email,
        phone: row.phone,
        subject: row.subject,
        message: row.message,
        answered: row.answered_at !== null,
      })),
    );
  },
};
