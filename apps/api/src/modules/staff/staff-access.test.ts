import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { buildTestApp } from '../../test/app.ts';
import { testAppSuite } from '../../test/suite.ts';
import { TestBrowser } from '../../test/client.ts';
import { loadMigrations, migrate } from '../../db/migrate.ts';
import { createTestDatabase, describeEachDatabase, testDatabaseKinds } from '../../test/databases.ts';
import { createTestStaff } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';

describeEachDatabase('who granted each staff member back-office access (decision 050)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built));

  const grantsOf = (staffId: string) =>
    database().query<{ granted_by: string | null; kind: string }>('SELECT granted_by, kind FROM staff_access_grants WHERE staff_id = $1 ORDER BY id', [
      staffId,
    ]);

  it('records who created, re-enabled, changed the role of and reset the second factor of a member; a disable grants nothing', async () => {
    const admin = await createTestStaff(database(), config, 'admin');
    const browser = await new TestBrowser(app).signInAsStaff(database(), admin.id);
    const created = await browser.post('/api/v1/staff/members', {
      email: 'granted.member@bank.test',
      password: 'a fine new passphrase',
      role: 'support',
      reason: 'New hire',
    });
    expect(created.statusCode, created.body).toBe(201);
    const memberId = created.json<{ staffId: string }>().staffId;
    const change = (path: string, body: object) => browser.post(`/api/v1/staff/members/${memberId}/${path}`, body);
    expect((await change('disable', { reason: 'On leave' })).statusCode).toBe(204);
    expect((await change('enable', { reason: 'Back from leave' })).statusCode).toBe(204);
    expect((await change('role', { role: 'compliance', reason: 'Moved to compliance' })).statusCode).toBe(204);
    expect((await change('reset-second-factor', { reason: 'Lost phone' })).statusCode).toBe(200);

    expect(await grantsOf(memberId)).toEqual([
      { granted_by: admin.id, kind: 'created' },
      { granted_by: admin.id, kind: 'enabled' },
      { granted_by: admin.id, kind: 'role_changed' },
      { granted_by: admin.id, kind: 'second_factor_reset' },
    ]);
    // The operator's CLI (and test staff, made the same way) grant with no staff member behind them.
    expect(await grantsOf(admin.id)).toEqual([{ granted_by: null, kind: 'created' }]);
  });

  it('create-staff records a grant by no staff member: the operator is not one of the staff', async () => {
    const result = await runOpsCommand({ database: async () => database(), config }, 'create-staff', [
      '--email',
      'operator.made@bank.test',
      '--password',
      'an operator passphrase',
      '--role',
      'compliance',
    ]);
    expect(result.exitCode, result.output).toBe(0);
    expect(await grantsOf(JSON.parse(result.output).staffId)).toEqual([{ granted_by: null, kind: 'created' }]);
  });
});

describeEachDatabase('the last active administrator under concurrent changes', (database) => {
  let app: FastifyInstance;
  let config: Config;
  beforeAll(async () => {
    ({ app, config } = await buildTestApp(database()));
  });

  /**
   * Each round is a fresh pair; the old check-then-act (count, then update, in separate statements)
   * lost in the first round on both databases. PGlite queues whole transactions on its one
   * connection, so there one transaction alone serialises the two changes; PostgreSQL runs them at
   * once and needs the lock too (without it this test fails there and passes on PGlite).
   */
  const rounds = 6;

  it('two admins demoting or disabling each other at once: one change wins, the other is refused 409, one active admin remains', async () => {
    for (let round = 0; round < rounds; round += 1) {
      // Each round starts with exactly two active admins: the survivor of the last round steps aside
      // (directly, as test setup), so the guard is the only thing between the two and an empty bank.
      await database().query("UPDATE staff SET disabled_at = now() WHERE role = 'admin' AND disabled_at IS NULL");
      const [ann, bob] = await Promise.all([createTestStaff(database(), config, 'admin'), createTestStaff(database(), config, 'admin')]);
      const [annBrowser, bobBrowser] = await Promise.all([
        new TestBrowser(app).signInAsStaff(database(), ann.id),
        new TestBrowser(app).signInAsStaff(database(), bob.id),
      ]);
      // Even rounds demote each other; odd rounds mix a demotion with a disable.
      const bobsChange =
        round % 2 === 0
          ? bobBrowser.post(`/api/v1/staff/members/${ann.id}/role`, { role: 'compliance', reason: 'Moving to compliance' })
          : bobBrowser.post(`/api/v1/staff/members/${ann.id}/disable`, { reason: 'Left the bank' });
      const answers = await Promise.all([
        annBrowser.post(`/api/v1/staff/members/${bob.id}/role`, { role: 'operations', reason: 'Moving to operations' }),
        bobsChange,
      ]);
      // The loser is refused by the guard (409). When its request reaches the server only after the
      // winner's change committed, the change refuses it first: its session ended (401), or its role
      // is read as no longer admin (403). Either way exactly one change wins.
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect([
        [204, 401],
        [204, 403],
        [204, 409],
      ]).toContainEqual(statuses);
      const refused = answers.find((answer) => answer.statusCode !== 204);
      const refusals = {
        401: { error: { code: 'unauthenticated' } },
        403: { error: { code: 'forbidden' } },
        409: { error: { code: 'conflict', message: 'This is the last active administrator' } },
      };
      expect(refused?.json()).toMatchObject(refusals[refused?.statusCode as keyof typeof refusals]);
      const admins = await database().query("SELECT id FROM staff WHERE role = 'admin' AND disabled_at IS NULL AND id = ANY($1::uuid[])", [[ann.id, bob.id]]);
      expect(admins).toHaveLength(1);
    }
  });
});

describe.each(testDatabaseKinds)('migration 0028 on a database with staff (%s)', (kind) => {
  /** The version of the migration that adds staff_access_grants. */
  const grantsMigration = 28;

  it("records each member's creator, and the enables, role changes and resets the audit log holds, from before the table existed", async () => {
    const { db, dispose } = await createTestDatabase(kind, { migrated: false });
    try {
      const migrations = await loadMigrations();
      await migrate(
        db,
        migrations.filter((migration) => migration.version < grantsMigration),
      );
      // Each member is created a minute after the last: the migration orders the creations by
      // created_at, and three inserts in a row can share one clock tick.
      let minutesAgo = 10;
      const insertStaff = async (email: string, createdBy: string | null) => {
        minutesAgo -= 1;
        const [row] = await db.query<{ id: string }>(
          `INSERT INTO staff (email, email_normalized, password_hash, role, totp_secret_encrypted, created_by, created_at)
           VALUES ($1, $1, 'x', 'admin', '\\x00', $2, now() - make_interval(mins => $3::int)) RETURNING id`,
          [email, createdBy, minutesAgo],
        );
        if (!row) throw new Error('no staff row');
        return row.id;
      };
      const root = await insertStaff('root@bank.test', null);
      const made = await insertStaff('made@bank.test', root);
      const changed = await insertStaff('changed@bank.test', null);
      const audit = (actorType: string, actorId: string, action: string, subject: string) =>
        db.query("INSERT INTO audit_log (actor_type, actor_id, action, subject, outcome) VALUES ($1, $2, $3, $4, 'success')", [
          actorType,
          actorId,
          action,
          subject,
        ]);
      await audit('staff', root, 'staff.disable', changed);
      await audit('staff', root, 'staff.enable', changed);
      await audit('staff', made, 'staff.role_change', changed);
      await audit('staff', made, 'staff.reset_second_factor', root);
      // Not grants by a staff member: the operator's CLI, and a row whose actor is no staff member.
      await audit('system', 'ops-cli', 'staff.create', changed);
      await audit('staff', '00000000-0000-4000-8000-000000000000', 'staff.enable', changed);

      await migrate(db, migrations);
      const grants = await db.query<{ staff_id: string; granted_by: string | null; kind: string }>(
        'SELECT staff_id, granted_by, kind FROM staff_access_grants ORDER BY id',
      );
      expect(grants).toEqual([
        { staff_id: root, granted_by: null, kind: 'created' },
        { staff_id: made, granted_by: root, kind: 'created' },
        { staff_id: changed, granted_by: null, kind: 'created' },
        { staff_id: changed, granted_by: root, kind: 'enabled' },
        { staff_id: changed, granted_by: made, kind: 'role_changed' },
        { staff_id: root, granted_by: made, kind: 'second_factor_reset' },
      ]);
    } finally {
      await dispose();
    }
  }, 180_000);
});
