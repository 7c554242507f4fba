import { formatMoney } from '@strongroom/contracts/money.ts';
import { parseArgs } from 'node:util';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';

import { recordRailOutcome, type RailOutcomeResult } from './rail-outcomes.ts';
import { returnCodePattern } from './rail.ts';
import { listHeldPayments } from './repository.ts';
import { reviewHeldPayment } from './held-review.ts';
import { findActiveStaffByEmail } from './staff-repository.ts';

const maxReasonLength = 500;

/**
 * `npm run ops -- review <transferId> release|reject --reason "..." [--staff EMAIL]` (docs/product.md
 * sections 5 and 6). A release of FOUR_EYES_CENTS or more needs two different staff members: the
 * CLI acts on behalf of the staff member `--staff` names, so two people can release through it,
 * and without `--staff` it refuses such a release. The two must be independent, as in the
 * console (decision 050): `reviewHeldPayment` refuses a second approver linked to the first.
 */
export const reviewCommand: OpsCommand = {
  name: 'review',
  summary: 'Release or reject a transfer held for review (four eyes at FOUR_EYES_CENTS: name the staff member)',
  usage: 'review <transferId> release|reject --reason "..." [--staff EMAIL]',
  async run({ database, config, liveEvents }, args) {
    const { values, positionals } = parseArgs({
      args,
      options: { reason: { type: 'string' }, staff: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const [paymentId, action] = positionals;
    if (!paymentId || (action !== 'release' && action !== 'reject') || positionals.length !== 2)
      throw new OpsUsageError('give a transfer id and release or reject');
    const reason = values.reason?.trim() ?? '';
    if (reason.length === 0 || reason.length > maxReasonLength) throw new OpsUsageError(`--reason is required (at most ${maxReasonLength} characters)`);
    const db = await database();
    const staff = values.staff === undefined ? undefined : await findActiveStaffByEmail(db, values.staff);
    if (values.staff !== undefined && !staff) return { exitCode: 1, output: `No active staff member ${values.staff}` };
    const outcome = await reviewHeldPayment({ db, config, liveEvents }, paymentId, { action, reason }, { staffId: staff?.id ?? null, audit: {} });
    if (outcome === 'not_found') return { exitCode: 1, output: `No transfer ${paymentId}` };
    if (outcome === 'already_decided') return { exitCode: 1, output: `Transfer ${paymentId} is not in review: it was already decided` };
    if (outcome === 'four_eyes_required')
      return {
        exitCode: 1,
        output: staff
          ? `${staff.email} approved this release already: a second, different staff member must complete it (--staff EMAIL)`
          : `This release needs two different staff members (four eyes): run it with --staff EMAIL, once for each`,
      };
    if (outcome === 'approvers_linked')
      return {
        exitCode: 1,
        output: `${staff?.email ?? 'This staff member'} and the first approver are linked: one granted the other's back-office access (directly or through others), or the same person granted both. A staff member independent of both must complete it (--staff EMAIL)`,
      };
    return ok({ transferId: paymentId, outcome });
  },
};

const heldListLimit = 200;

/** `npm run ops -- held-transfers`: what waits for a review decision, oldest first. */
export const heldTransfersCommand: OpsCommand = {
  name: 'held-transfers',
  summary: 'List transfers held for review, oldest first',
  usage: 'held-transfers',
  async run({ database }, args) {
    if (args.length > 0) throw new OpsUsageError('held-transfers takes no arguments');
    const db = await database();
    const rows = await listHeldPayments(db, heldListLimit);
    return ok(
      rows.map((row) => ({
        transferId: row.id,
        kind: row.kind,
        amount: formatMoney(row.amount_cents),
        to: row.counterparty_name,
        customer: row.customer,
        heldAt: row.created_at.toISOString(),
        rule: row.rule,
      })),
    );
  },
};

function requiredReason(reason: string | undefined): string {
  const trimmed = reason?.trim() ?? '';
  if (trimmed.length < 3 || trimmed.length > maxReasonLength) throw new OpsUsageError(`--reason is required (3 to ${maxReasonLength} characters)`);
  return trimmed;
}

const railOutcomeWords: Record<RailOutcomeResult, string> = {
  settled: 'settled',
  returned: 'returned',
  returned_after_settlement: 'returned after it had settled: the money was taken back',
  not_found: 'not found',
  already_decided: 'not pending at the rail: it was already settled or returned',
};

/** `npm run ops -- ach-settle <paymentId> --reason "..."`: the rail says a pending ACH payment settled. */
export const achSettleCommand: OpsCommand = {
  name: 'ach-settle',
  summary: 'Record that the rail settled a pending ACH payment (a deposit clears)',
  usage: 'ach-settle <paymentId> --reason "..."',
  async run({ database, config, liveEvents }, args) {
    const { values, positionals } = parseArgs({ args, options: { reason: { type: 'string' } }, allowPositionals: true, strict: true });
    const [paymentId] = positionals;
    if (!paymentId || positionals.length !== 1) throw new OpsUsageError('give one payment id');
    const reason = requiredReason(values.reason);
    const db = await database();
    const outcome = await recordRailOutcome({ db, config, liveEvents }, paymentId, { kind: 'settled' }, { actorType: 'staff', actorId: 'ops-cli', reason });
    return {
      exitCode: outcome === 'settled' ? 0 : 1,
      output: outcome === 'settled' ? JSON.stringify({ paymentId, outcome }) : `Payment ${paymentId}: ${railOutcomeWords[outcome]}`,
    };
  },
};

/** `npm run ops -- ach-return <paymentId> --code R01 --reason "..."`: another bank returned an ACH payment. */
export const achReturnCommand: OpsCommand = {
  name: 'ach-return',
  summary: 'Record that another bank returned an ACH payment, with its NACHA return code',
  usage: 'ach-return <paymentId> --code R01 --reason "..."',
  async run({ database, config, liveEvents }, args) {
    const { values, positionals } = parseArgs({
      args,
      options: { reason: { type: 'string' }, code: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const [paymentId] = positionals;
    if (!paymentId || positionals.length !== 1) throw new OpsUsageError('give one payment id');
    const code = values.code?.trim().toUpperCase() ?? '';
    if (!returnCodePattern.test(code)) throw new OpsUsageError('--code is a NACHA return code such as R01');
    const reason = requiredReason(values.reason);
    const db = await database();
    const outcome = await recordRailOutcome(
      { db, config, liveEvents },
      paymentId,
      { kind: 'returned', code },
      { actorType: 'staff', actorId: 'ops-cli', reason },
    );
    const done = outcome === 'returned' || outcome === 'returned_after_settlement';
    return { exitCode: done ? 0 : 1, output: done ? JSON.stringify({ paymentId, outcome, code }) : `Payment ${paymentId}: ${railOutcomeWords[outcome]}` };
  },
};
