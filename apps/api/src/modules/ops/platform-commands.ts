import type { OpsCommand } from '../../platform/ops-command.ts';
import { ok } from '../../platform/ops-command.ts';

export const statusCommand: OpsCommand = {
  name: 'status',
  summary: 'Show the database in use and the migrations applied',
  usage: 'status',
  async run({ database, config }) {
    const db = await database();
    const migrations = await db.query<{ name: string; applied_at: Date }>('SELECT name, applied_at FROM schema_migrations ORDER BY version');
    const [jobs] = await db.query<{ queued: bigint; failed: bigint }>(
      `SELECT count(*) FILTER (WHERE status = 'queued')::bigint AS queued, count(*) FILTER (WHERE status = 'failed')::bigint AS failed FROM jobs`,
    );
    return ok({
      mode: config.mode,
      database: db.kind,
      dataDirectory: db.kind === 'pglite' ? config.dataDirectory : undefined,
      migrations: migrations.map((migration) => migration.name),
      jobs: { queued: Number(jobs?.queued ?? 0n), failed: Number(jobs?.failed ?? 0n) },
    });
  },
};

/** `help` lists every command; it is built from the same registry the CLI dispatches on. */
export function helpCommand(commands: () => readonly OpsCommand[]): OpsCommand {
  return {
    name: 'help',
    summary: 'List the commands',
    usage: 'help',
    async run() {
      const lines = ['Usage: npm run ops -- <command> [options]', '', 'Commands:'];
      for (const command of commands()) lines.push(`  ${command.usage.padEnd(48)} ${command.summary}`);
      return ok(lines.join('\n'));
    },
  };
}
