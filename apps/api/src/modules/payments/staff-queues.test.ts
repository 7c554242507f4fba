import nacha from '@midlandsbank/node-nacha';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../config.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite, type PayingCustomer } from '../../test/payments.ts';
import { createTestStaff, staffBrowser } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';

describeEachDatabase('the back office: held transfers with four eyes, and payments at the rails', (database) => {
  let app: FastifyInstance;
  let config: Config;
  // Realistic rails: payments stay pending at the rail for days, as staff see them.
  const kit = paymentSuite(database, (built) => ({ app, config } = built), { environment: { RAIL_SPEED: 'realistic' } });

  async function heldTransfer(amountCents: number, payer?: PayingCustomer) {
    const dana = payer ?? (await kit.customer({ fundCents: BigInt(amountCents) * 2n }));
    const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
    const response = await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents, message: 'House deposit' });
    expect(response.statusCode, response.body).toBe(201);
    const transfer = response.json<{ transfer: { id: string; status: string } }>().transfer;
    expect(transfer.status).toBe('in_review');
    return { dana, erin, transferId: transfer.id };
  }

  const decide = (
    browser: { post: (url: string, body?: object) => Promise<{ statusCode: number; json: <T>() => T; body: string }> },
    id: string,
    decision: string,
    reason = 'Called the customer back',
  ) => browser.post(`/api/v1/staff/held-transfers/${id}/decision`, { decision, reason });

  async function auditRows(action: string, subject: string) {
    return database().query<{ actor_id: string; details: Record<string, string> }>(
      'SELECT actor_id, details FROM audit_log WHERE action = $1 AND subject = $2 ORDER BY chain_seq',
      [action, subject],
    );
  }

  describe('held transfers', () => {
    it('lists held transfers oldest first with the customer, payee, rule, waiting time, recent payments and four-eyes state', async () => {
      const { dana, transferId } = await heldTransfer(1_000_000);
      const { browser } = await staffBrowser(app, database(), config, 'compliance');
      const response = await browser.get('/api/v1/staff/held-transfers');
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<{ items: { id: string; heldAt: string }[]; total: number; nextCursor: string | null }>();
      expect(answer.total).toBeGreaterThanOrEqual(1);
      const heldAts = answer.items.map((item) => item.heldAt);
      expect([...heldAts].sort()).toEqual(heldAts);
      const item = answer.items.find((candidate) => candidate.id === transferId);
      expect(item).toMatchObject({
        kind: 'internal',
        status: 'in_review',
        amountCents: 1_000_000,
        rule: 'A single payment of $10,000.00 or more',
        customer: { id: dana.id, name: 'Demo Customer', email: expect.any(String) },
        payee: { name: 'Erin Example' },
        fourEyes: { required: false, thresholdCents: 5_000_000, approvals: [] },
      });
      expect(new Date(item?.heldAt ?? '').getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect((item as unknown as { recentPayments: { id: string }[] }).recentPayments.map((payment) => payment.id)).toContain(transferId);
      const detail = await browser.get(`/api/v1/staff/held-transfers/${transferId}`);
      expect(detail.json()).toMatchObject({ id: transferId });
    });

    it('pages with an opaque cursor and refuses a cursor it did not give', async () => {
      const { browser } = await staffBrowser(app, database(), config, 'compliance');
      await heldTransfer(1_000_000);
      const all = (await browser.get('/api/v1/staff/held-transfers')).json<{ items: { id: string }[]; total: number }>();
      const first = all.items[0];
      if (!first) throw new Error('nothing held');
      const after = (await browser.get(`/api/v1/staff/held-transfers?cursor=${first.id}`)).json<{ items: { id: string }[]; total: number }>();
      expect(after.items.map((item) => item.id)).toEqual(all.items.slice(1).map((item) => item.id));
      expect(after.total).toBe(all.total);
      expect((await browser.get('/api/v1/staff/held-transfers?cursor=nonsense')).statusCode).toBe(400);
      expect((await browser.get('/api/v1/staff/held-transfers?status=maybe')).statusCode).toBe(400);
    });

    it('one staff member releases a transfer below the four-eyes threshold, exactly once, audited with the reason', async () => {
      const { erin, transferId } = await heldTransfer(1_000_000);
      const { browser, member } = await staffBrowser(app, database(), config, 'compliance');
      const released = await decide(browser, transferId, 'release', '<b>Checked</b> with the customer');
      expect(released.statusCode, released.body).toBe(200);
      expect(released.json()).toMatchObject({ status: 'released', transfer: { id: transferId, status: 'completed' } });
      expect((await kit.balances(erin)).checking.balanceCents).toBe(1_000_000);
      const again = await decide(browser, transferId, 'reject');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: { code: 'already_decided' } });
      expect(await auditRows('payment.review_release', transferId)).toEqual([
        expect.objectContaining({ actor_id: member.id, details: { reason: '<b>Checked</b> with the customer' } }),
      ]);
      const history = (await browser.get('/api/v1/staff/held-transfers?status=released')).json<{ items: { id: string }[] }>();
      expect(history.items.map((item) => item.id)).toContain(transferId);
    });

    it('a release of $50,000 or more needs two different staff members; the same person twice is refused', async () => {
      const { dana, erin, transferId } = await heldTransfer(5_000_000);
      const first = await staffBrowser(app, database(), config, 'compliance');
      const second = await staffBrowser(app, database(), config, 'admin');

      const approval = await decide(first.browser, transferId, 'release', 'Source of funds seen');
      expect(approval.statusCode, approval.body).toBe(202);
      expect(approval.json()).toMatchObject({
        status: 'awaiting_second_approval',
        transfer: { status: 'in_review', fourEyes: { required: true, approvals: [{ staffId: first.member.id, email: first.member.email }] } },
      });
      expect((await kit.balances(erin)).checking.balanceCents).toBe(0);

      const same = await decide(first.browser, transferId, 'release');
      expect(same.statusCode).toBe(403);
      expect(same.json()).toMatchObject({ error: { code: 'four_eyes_required' } });

      const completed = await decide(second.browser, transferId, 'release', 'Second look, fine');
      expect(completed.statusCode, completed.body).toBe(200);
      expect(completed.json()).toMatchObject({ status: 'released', transfer: { status: 'completed' } });
      expect((await kit.balances(erin)).checking.balanceCents).toBe(5_000_000);
      expect((await dana.browser.get(`/api/v1/transfers/${transferId}`)).json().transfer.status).toBe('completed');
      expect((await decide(first.browser, transferId, 'release')).statusCode).toBe(409);

      expect(await auditRows('payment.review_first_approval', transferId)).toEqual([
        expect.objectContaining({ actor_id: first.member.id, details: { reason: 'Source of funds seen' } }),
      ]);
      expect(await auditRows('payment.review_four_eyes_refused', transferId)).toHaveLength(1);
      expect(await auditRows('payment.review_release', transferId)).toEqual([
        expect.objectContaining({ actor_id: second.member.id, details: { reason: 'Second look, fine', firstApprover: first.member.id } }),
      ]);
    });

    it('two second approvers at once release it once: the other is told it was already decided', async () => {
      const { erin, transferId } = await heldTransfer(5_000_000);
      const first = await staffBrowser(app, database(), config, 'compliance');
      expect((await decide(first.browser, transferId, 'release')).statusCode).toBe(202);
      const b = await staffBrowser(app, database(), config, 'compliance');
      const c = await staffBrowser(app, database(), config, 'admin');
      const answers = await Promise.all([decide(b.browser, transferId, 'release'), decide(c.browser, transferId, 'release')]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect((await kit.balances(erin)).checking.balanceCents).toBe(5_000_000);
      expect(await auditRows('payment.review_release', transferId)).toHaveLength(1);
    });

    it('a rejection needs one person, clears a waiting first approval and gives the money back', async () => {
      const { dana, transferId } = await heldTransfer(5_000_000);
      const first = await staffBrowser(app, database(), config, 'compliance');
      expect((await decide(first.browser, transferId, 'release')).statusCode).toBe(202);
      const rejected = await decide(first.browser, transferId, 'reject', 'Payee could not be confirmed');
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect(rejected.json()).toMatchObject({
        status: 'rejected',
        transfer: { status: 'rejected', decisionReason: 'Payee could not be confirmed', fourEyes: { approvals: [] } },
      });
      expect(await kit.balances(dana)).toMatchObject({ checking: { balanceCents: 10_000_000, availableCents: 10_000_000 } });
      expect((await database().query('SELECT 1 FROM payment_review_approvals WHERE payment_id = $1', [transferId])).length).toBe(0);
    });

    it('refuses a bad decision word, a short or missing reason and a reason of 10,000 characters, changing nothing', async () => {
      const { transferId } = await heldTransfer(1_000_000);
      const { browser } = await staffBrowser(app, database(), config, 'compliance');
      for (const body of [
        { decision: 'approve', reason: 'fine enough' },
        { decision: 'release', reason: 'no' },
        { decision: 'release' },
        { decision: 'release', reason: 'x'.repeat(10_000) },
      ]) {
        const response = await browser.post(`/api/v1/staff/held-transfers/${transferId}/decision`, body);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ error: { code: 'validation_failed' } });
      }
      expect((await browser.get(`/api/v1/staff/held-transfers/${transferId}`)).json()).toMatchObject({ status: 'in_review' });
    });

    it('answers 404 for an unknown or malformed id, 403 (audited) to a role without transfers.review, 401 to a customer', async () => {
      const { dana, transferId } = await heldTransfer(1_000_000);
      const compliance = await staffBrowser(app, database(), config, 'compliance');
      expect((await decide(compliance.browser, '7c0e4c4e-63b0-4b0e-9d2e-6a1f2b0c9d11', 'release')).statusCode).toBe(404);
      expect((await decide(compliance.browser, 'not-an-id', 'release')).statusCode).toBe(404);
      expect((await compliance.browser.get('/api/v1/staff/held-transfers/not-an-id')).statusCode).toBe(404);
      for (const role of ['support', 'operations'] as const) {
        const { browser, member } = await staffBrowser(app, database(), config, role);
        expect((await browser.get('/api/v1/staff/held-transfers')).statusCode).toBe(403);
        const refused = await decide(browser, transferId, 'release');
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ error: { code: 'forbidden' } });
        const denied = await database().query("SELECT 1 FROM audit_log WHERE actor_id = $1 AND outcome = 'denied'", [member.id]);
        expect(denied.length).toBeGreaterThanOrEqual(2);
      }
      expect((await dana.browser.get('/api/v1/staff/held-transfers')).statusCode).toBe(401);
      expect((await decide(dana.browser, transferId, 'release')).statusCode).toBe(401);
    });
  });

  describe('the ops CLI review obeys four eyes', () => {
    const review = (args: string[]) => runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'review', args);

    it('refuses a large release without --staff, and releases with two different staff members named', async () => {
      const { erin, transferId } = await heldTransfer(5_000_000);
      const anonymous = await review([transferId, 'release', '--reason', 'Looks fine']);
      expect(anonymous.exitCode).toBe(1);
      expect(anonymous.output).toMatch(/two different staff members.*--staff EMAIL/);
      const alice = await createTestStaff(database(), config, 'compliance');
      const bob = await createTestStaff(database(), config, 'compliance');
      const firstApproval = await review([transferId, 'release', '--reason', 'Looks fine', '--staff', alice.email]);
      expect(firstApproval.exitCode, firstApproval.output).toBe(0);
      expect(JSON.parse(firstApproval.output)).toEqual({ transferId, outcome: 'awaiting_second_approval' });
      const again = await review([transferId, 'release', '--reason', 'Looks fine', '--staff', alice.email.toUpperCase()]);
      expect(again.exitCode).toBe(1);
      expect(again.output).toMatch(/second, different staff member/);
      expect((await review([transferId, 'release', '--reason', 'Fine', '--staff', 'nobody@bank.test'])).output).toMatch(/No active staff member/);
      const done = await review([transferId, 'release', '--reason', 'Agreed', '--staff', bob.email]);
      expect(JSON.parse(done.output)).toEqual({ transferId, outcome: 'released' });
      expect((await kit.balances(erin)).checking.balanceCents).toBe(5_000_000);
    });
  });

  describe('payments at the rails', () => {
    async function externalPayment(dana: PayingCustomer, amountCents: number, accountNumber: string) {
      const response = await kit.payOtherBank(dana, { toAccountNumber: accountNumber, accountName: 'Outside Payee', amountCents, message: 'Invoice 12' });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ transfer: { id: string; status: string } }>().transfer;
    }

    it('lists pending ACH payments by expected settlement, and exports the day as a NACHA file the independent parser reads', async () => {
      const dana = await kit.customer({ fundCents: 500_000n });
      const one = await externalPayment(dana, 12_345, '4400123456');
      const two = await externalPayment(dana, 20_000, '99887766');
      expect([one.status, two.status]).toEqual(['pending', 'pending']);
      const { browser, member } = await staffBrowser(app, database(), config, 'operations');
      const listed = await browser.get('/api/v1/staff/payments?status=pending&rail=ach');
      expect(listed.statusCode, listed.body).toBe(200);
      const answer = listed.json<{ items: { id: string; expectedSettlementAt: string; entry: string; amountCents: number }[]; total: number }>();
      const ours = answer.items.filter((item) => item.id === one.id || item.id === two.id);
      expect(ours).toHaveLength(2);
      expect(ours.every((item) => item.entry === 'credit')).toBe(true);
      const settles = answer.items.map((item) => item.expectedSettlementAt);
      expect([...settles].sort()).toEqual(settles);
      expect((await browser.get('/api/v1/staff/payments?rail=wire')).json<{ items: { id: string }[] }>().items.map((item) => item.id)).not.toContain(one.id);

      const day = ours[0]?.expectedSettlementAt.slice(0, 10) ?? '';
      const onDay = (await browser.get(`/api/v1/staff/payments?date=${day}`)).json<{ items: { id: string; amountCents: number; kind: string }[] }>();
      const file = await browser.get(`/api/v1/staff/payments/ach-file?date=${day}`);
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers['content-type']).toMatch(/^text\/plain/);
      expect(file.headers['content-disposition']).toBe(`attachment; filename="ach-credits-${day}.txt"`);
      const lines = file.body.split('\r\n').slice(0, -1);
      for (const line of lines) expect(line).toHaveLength(94);
      expect(lines.length % 10).toBe(0);
      const parsed = nacha.from(file.body).data;
      const expected = onDay.items.filter((item) => item.kind === 'external');
      const expectedTotal = expected.reduce((sum, item) => sum + item.amountCents, 0);
      expect(parsed.file.footer).toMatchObject({ batchCount: 1, entryAndAddendaCount: expected.length, totalDebit: 0, totalCredit: expectedTotal });
      expect(parsed.batches[0]?.footer).toMatchObject({ totalCredit: expectedTotal });
      expect(parsed.batches[0]?.entries.map((entry) => entry.amount).sort()).toEqual(expected.map((item) => item.amountCents).sort());
      // A pure export: nothing was recorded as sent, and the download is audited.
      expect(await database().query('SELECT 1 FROM ach_entries WHERE payment_id = ANY($1::uuid[])', [[one.id, two.id]])).toHaveLength(0);
      expect(await database().query("SELECT 1 FROM audit_log WHERE action = 'ach.file_exported' AND actor_id = $1", [member.id])).toHaveLength(1);
    });

    it('answers 400 for a bad date and 404 for a day with no ACH credits', async () => {
      const { browser } = await staffBrowser(app, database(), config, 'operations');
      for (const date of ['2026-13-01', '2026-02-30', 'tomorrow', ''])
        expect((await browser.get(`/api/v1/staff/payments/ach-file?date=${date}`)).statusCode).toBe(400);
      expect((await browser.get('/api/v1/staff/payments/ach-file')).statusCode).toBe(400);
      const empty = await browser.get('/api/v1/staff/payments/ach-file?date=2001-01-01');
      expect(empty.statusCode).toBe(404);
      expect(empty.json()).toMatchObject({ error: { code: 'not_found' } });
    });

    it('is for payments.settle: admin and operations may, compliance and support get 403, a customer 401', async () => {
      const dana = await kit.customer();
      for (const role of ['operations', 'admin'] as const) {
        const { browser } = await staffBrowser(app, database(), config, role);
        expect((await browser.get('/api/v1/staff/payments')).statusCode).toBe(200);
        expect((await browser.get('/api/v1/staff/payments/ach-file?date=2001-01-01')).statusCode).toBe(404);
      }
      for (const role of ['compliance', 'support'] as const) {
        const { browser } = await staffBrowser(app, database(), config, role);
        expect((await browser.get('/api/v1/staff/payments')).statusCode).toBe(403);
        expect((await browser.get('/api/v1/staff/payments/ach-file?date=2001-01-01')).statusCode).toBe(403);
      }
      expect((await dana.browser.get('/api/v1/staff/payments')).statusCode).toBe(401);
      expect((await dana.browser.get('/api/v1/staff/payments/ach-file?date=2001-01-01')).statusCode).toBe(401);
    });
  });
});
