import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { StaffRole } from '@strongroom/contracts/staff.ts';
import type { Config } from '../../config.ts';
import { totpCode } from '../../platform/totp.ts';
import { TestBrowser } from '../../test/client.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { paymentSuite } from '../../test/payments.ts';
import { createTestStaff, type TestStaffMember } from '../../test/staff.ts';
import { runOpsCommand } from '../ops/registry.ts';

/** $60,000: above the default four-eyes threshold of $50,000, as in the probe. */
const largeAmountCents = 6_000_000;

describeEachDatabase('four eyes needs two independent people (decision 050)', (database) => {
  let app: FastifyInstance;
  let config: Config;
  const kit = paymentSuite(database, (built) => ({ app, config } = built));

  /** A $60,000 transfer between two customers of the bank, held for review. */
  async function heldTransfer() {
    const dana = await kit.customer({ fundCents: BigInt(largeAmountCents) * 2n });
    const erin = await kit.customer({ fundCents: 0n, firstName: 'Erin', lastName: 'Example' });
    const response = await kit.payCustomer(dana, erin, { accountName: 'Erin Example', amountCents: largeAmountCents, message: 'House deposit' });
    expect(response.statusCode, response.body).toBe(201);
    const transfer = response.json<{ transfer: { id: string; status: string } }>().transfer;
    expect(transfer.status).toBe('in_review');
    const balancesNow = async () => ({ dana: await kit.balances(dana), erin: await kit.balances(erin) });
    return { transferId: transfer.id, balancesNow };
  }

  interface SignedInStaff {
    member: Pick<TestStaffMember, 'id' | 'email'>;
    browser: TestBrowser;
  }

  /** A staff member as the operator's CLI makes one: nobody in the back office granted their access. */
  async function independent(role: StaffRole): Promise<SignedInStaff> {
    const member = await createTestStaff(database(), config, role);
    return { member, browser: await new TestBrowser(app).signInAsStaff(database(), member.id) };
  }

  /** A member an admin adds through `POST /staff/members`, signed in with the password and code the admin was given. */
  async function createdBy(admin: SignedInStaff, role: StaffRole): Promise<SignedInStaff> {
    const email = `${role}-made-by-${admin.member.id}-${Date.now()}-${Math.random().toString(36).slice(2)}@bank.test`;
    const password = 'a passphrase the admin chose';
    const created = await admin.browser.post('/api/v1/staff/members', { email, password, role, reason: 'New colleague' });
    expect(created.statusCode, created.body).toBe(201);
    const { staffId, totpSecret } = created.json<{ staffId: string; totpSecret: string }>();
    const browser = new TestBrowser(app);
    const signedIn = await browser.post('/api/v1/staff/auth/login', { email, password, code: totpCode(totpSecret) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    return { member: { id: staffId, email }, browser };
  }

  const decide = (staff: SignedInStaff, transferId: string, reason = 'Source of funds seen') =>
    staff.browser.post(`/api/v1/staff/held-transfers/${transferId}/decision`, { decision: 'release', reason });

  async function expectApproved(staff: SignedInStaff, transferId: string, status: 200 | 202): Promise<void> {
    const answer = await decide(staff, transferId);
    expect(answer.statusCode, answer.body).toBe(status);
  }

  /** Refused exactly as the same person twice is, with the reason in words and in the audit log; nothing changes. */
  async function expectLinkedRefusal(second: SignedInStaff, first: SignedInStaff, held: Awaited<ReturnType<typeof heldTransfer>>): Promise<void> {
    const before = await held.balancesNow();
    const refused = await decide(second, held.transferId, 'Completing the release');
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'four_eyes_required',
        message:
          "You and the first approver are linked: one of you granted the other's back-office access (directly or through others), or the same person granted both. A staff member independent of both must approve.",
      },
    });
    const [audit] = await database().query<{ details: Record<string, string> }>(
      "SELECT details FROM audit_log WHERE action = 'payment.review_four_eyes_refused' AND subject = $1 AND actor_id = $2",
      [held.transferId, second.member.id],
    );
    expect(audit?.details).toEqual({ reason: 'Completing the release', refusal: 'linked_approvers', firstApprover: first.member.id });
    const transfer = (await first.browser.get(`/api/v1/staff/held-transfers/${held.transferId}`)).json();
    expect(transfer).toMatchObject({ status: 'in_review', fourEyes: { approvals: [{ staffId: first.member.id }] } });
    expect(await held.balancesNow()).toEqual(before);
    expect(before.erin.checking.balanceCents).toBe(0);
  }

  it('the probe: an admin approves, creates a compliance account, signs in as it and approves again: refused, still in review, no money moved', async () => {
    const held = await heldTransfer();
    const admin = await independent('admin');
    await expectApproved(admin, held.transferId, 202);
    const puppet = await createdBy(admin, 'compliance');
    await expectLinkedRefusal(puppet, admin, held);
    const releases = await database().query("SELECT 1 FROM audit_log WHERE action = 'payment.review_release' AND subject = $1", [held.transferId]);
    expect(releases).toHaveLength(0);

    // Someone the admin never granted anything completes it as before.
    await expectApproved(await independent('compliance'), held.transferId, 200);
    expect((await held.balancesNow()).erin.checking.balanceCents).toBe(largeAmountCents);
  });

  it('a chain of grants links too: admin A creates admin B, B creates C; C cannot second A, nor A second C', async () => {
    const a = await independent('admin');
    const b = await createdBy(a, 'admin');
    const c = await createdBy(b, 'compliance');

    const first = await heldTransfer();
    await expectApproved(a, first.transferId, 202);
    await expectLinkedRefusal(c, a, first);

    const second = await heldTransfer();
    await expectApproved(c, second.transferId, 202);
    await expectLinkedRefusal(a, c, second);
  });

  it('two members created by the same admin cannot form a pair: that admin holds both keys', async () => {
    const admin = await independent('admin');
    const one = await createdBy(admin, 'compliance');
    const two = await createdBy(admin, 'compliance');
    const held = await heldTransfer();
    await expectApproved(one, held.transferId, 202);
    await expectLinkedRefusal(two, one, held);
    await expectLinkedRefusal(admin, one, held);
    await expectApproved(await independent('compliance'), held.transferId, 200);
  });

  it('re-enabling a member, changing their role and resetting their second factor each link them to the admin who did it', async () => {
    const admin = await independent('admin');
    const reEnabled = await independent('compliance');
    const promoted = await independent('support');
    const reset = await independent('compliance');
    const change = (target: SignedInStaff, path: string, body: object) => admin.browser.post(`/api/v1/staff/members/${target.member.id}/${path}`, body);
    expect((await change(reEnabled, 'disable', { reason: 'On leave' })).statusCode).toBe(204);
    expect((await change(reEnabled, 'enable', { reason: 'Back from leave' })).statusCode).toBe(204);
    expect((await change(promoted, 'role', { role: 'compliance', reason: 'Moved to compliance' })).statusCode).toBe(204);
    expect((await change(reset, 'reset-second-factor', { reason: 'Lost phone' })).statusCode).toBe(200);

    const held = await heldTransfer();
    await expectApproved(admin, held.transferId, 202);
    // Each change ended the member's sessions; they sign in again before they approve.
    for (const member of [reEnabled, promoted, reset]) {
      await expectLinkedRefusal({ member: member.member, browser: await new TestBrowser(app).signInAsStaff(database(), member.member.id) }, admin, held);
    }
  });

  it('a member one admin created may second an approval by another, independent admin', async () => {
    const creator = await independent('admin');
    const member = await createdBy(creator, 'compliance');
    const otherAdmin = await independent('admin');
    const held = await heldTransfer();
    await expectApproved(otherAdmin, held.transferId, 202);
    await expectApproved(member, held.transferId, 200);
    expect((await held.balancesNow()).erin.checking.balanceCents).toBe(largeAmountCents);
  });

  describe('the ops CLI review', () => {
    const review = (args: string[]) => runOpsCommand({ database: async () => database(), config, liveEvents: app.services.liveEvents }, 'review', args);

    it('refuses a second approver named with --staff who is linked to the first, and releases with an independent one', async () => {
      const admin = await independent('admin');
      const puppet = await createdBy(admin, 'compliance');
      const held = await heldTransfer();
      const first = await review([held.transferId, 'release', '--reason', 'Source of funds seen', '--staff', admin.member.email]);
      expect(JSON.parse(first.output)).toEqual({ transferId: held.transferId, outcome: 'awaiting_second_approval' });

      const before = await held.balancesNow();
      const linked = await review([held.transferId, 'release', '--reason', 'Completing the release', '--staff', puppet.member.email]);
      expect(linked.exitCode).toBe(1);
      expect(linked.output).toBe(
        `${puppet.member.email} and the first approver are linked: one granted the other's back-office access (directly or through others), or the same person granted both. A staff member independent of both must complete it (--staff EMAIL)`,
      );
      expect(await held.balancesNow()).toEqual(before);
      const [audit] = await database().query<{ details: Record<string, string> }>(
        "SELECT details FROM audit_log WHERE action = 'payment.review_four_eyes_refused' AND subject = $1 AND actor_id = $2",
        [held.transferId, puppet.member.id],
      );
      expect(audit?.details).toMatchObject({ refusal: 'linked_approvers', firstApprover: admin.member.id });

      const other = await createTestStaff(database(), config, 'compliance');
      const done = await review([held.transferId, 'release', '--reason', 'Agreed', '--staff', other.email]);
      expect(JSON.parse(done.output)).toEqual({ transferId: held.transferId, outcome: 'released' });
      expect((await held.balancesNow()).erin.checking.balanceCents).toBe(largeAmountCents);
    });
  });
});
