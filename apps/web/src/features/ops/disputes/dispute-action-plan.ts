import type { z } from 'zod';
import {
  disputeDecisionRequestSchema,
  disputeFourEyesCents,
  disputeInformationAskSchema,
  disputeStaffActionSchema,
  type StaffDispute,
} from '@strongroom/contracts/disputes.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import type { DisputeAction } from './disputes-api.ts';
import { openStatuses } from './dispute-words.ts';

/** The buttons of a case, each opening its dialog. */
export type DisputeActionKind = 'investigate' | 'provisional-credit' | 'request-information' | 'resolve' | 'deny' | 'approve';

/** What a dialog's form holds; each action reads only its own fields. */
export interface DisputeActionForm {
  question: string;
  explanation: string;
  reason: string;
}
export type DisputeActionField = keyof DisputeActionForm;

export interface DisputeActionPlan {
  title: string;
  /** What happens, in sentences, said again on the confirmation. */
  consequences: string[];
  /** The button that does it states the consequence. */
  confirmLabel: string;
  fields: readonly DisputeActionField[];
  /** The form checked by the contract's schema, then the request it sends. */
  check: (form: DisputeActionForm) => { action: DisputeAction } | { errors: Partial<Record<DisputeActionField, string>> };
}

function checker<Schema extends z.ZodType>(schema: Schema, request: (form: DisputeActionForm) => unknown, toAction: (body: z.output<Schema>) => DisputeAction) {
  return (form: DisputeActionForm) => {
    const parsed = schema.safeParse(request(form));
    if (parsed.success) return { action: toAction(parsed.data) };
    const errors: Partial<Record<DisputeActionField, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'question' || field === 'explanation' || field === 'reason') && !errors[field]) errors[field] = issue.message;
    }
    return { errors };
  };
}

const reasonOnly = (kind: 'investigate' | 'provisional-credit' | 'approve') =>
  checker(
    disputeStaffActionSchema,
    (form) => ({ reason: form.reason }),
    (body) => ({ kind, body }),
  );

const decide = (decision: 'customer' | 'denied') =>
  checker(
    disputeDecisionRequestSchema,
    (form) => ({ decision, explanation: form.explanation, reason: form.reason }),
    (body) => ({ kind: 'decision', body }),
  );

/** The four-eyes rule in words, where a resolution for the customer reaches it. */
function secondPerson(dispute: StaffDispute): string[] {
  return dispute.amountCents >= disputeFourEyesCents
    ? [`A resolution of ${formatMoney(disputeFourEyesCents)} or more waits for a second staff member's approval before it is carried out.`]
    : [];
}

/** Each action in words: its dialog's title, what it does and the button that does it. */
export function planOf(kind: DisputeActionKind, dispute: StaffDispute): DisputeActionPlan {
  const amount = formatMoney(dispute.amountCents);
  const name = dispute.customer.name;
  const credited = dispute.provisionalCreditCents > 0;
  switch (kind) {
    case 'investigate':
      return {
        title: 'Start investigating',
        consequences: ['The case moves to Investigating; the customer sees the new status.'],
        confirmLabel: 'Start investigating',
        fields: ['reason'],
        check: reasonOnly('investigate'),
      };
    case 'provisional-credit':
      return {
        title: `Give ${amount} of provisional credit`,
        consequences: [
          `${amount} goes into ${name}'s account now, from the disputes suspense account, and they get the provisional credit letter.`,
          'If the case is later denied, the credit is taken back only after 5 business days’ notice.',
        ],
        confirmLabel: `Credit ${amount} to ${name}`,
        fields: ['reason'],
        check: reasonOnly('provisional-credit'),
      };
    case 'request-information':
      return {
        title: 'Ask the customer',
        consequences: [`${name} reads your question in their dispute and gets a letter asking for it. Your reason stays with staff.`],
        confirmLabel: 'Send the question',
        fields: ['question', 'reason'],
        check: checker(
          disputeInformationAskSchema,
          (form) => ({ question: form.question, reason: form.reason }),
          (body) => ({ kind: 'request-information', body }),
        ),
      };
    case 'resolve':
      return {
        title: `Resolve ${amount} for ${name}`,
        consequences: [
          credited ? 'The provisional credit becomes final.' : `${amount} is credited to ${name} now, and is final.`,
          'A card charge is charged back to the card network; any other loss is the bank’s. The customer gets the result letter with your explanation.',
          ...secondPerson(dispute),
        ],
        confirmLabel: `Resolve ${amount} for ${name}`,
        fields: ['explanation', 'reason'],
        check: decide('customer'),
      };
    case 'deny':
      return {
        title: `Deny ${name}'s claim`,
        consequences: [
          'The customer gets the result letter with your explanation and their right to ask for the documents the bank relied on.',
          credited
            ? `The provisional credit of ${formatMoney(dispute.provisionalCreditCents)} is taken back on the 5th business day after today, not sooner.`
            : 'No money moves: no provisional credit was given.',
        ],
        confirmLabel: `Deny the claim of ${amount}`,
        fields: ['explanation', 'reason'],
        check: decide('denied'),
      };
    case 'approve': {
      const pending = dispute.pendingDecision;
      const proposed = pending?.decision === 'denied' ? `deny the claim of ${amount}` : `resolve ${amount} for ${name}`;
      return {
        title: 'Approve this decision',
        consequences: [
          `Another staff member proposed to ${proposed}${pending ? `, with the reason “${pending.reason}”` : ''}.`,
          'Approving carries it out now, and the customer gets the result letter.',
        ],
        confirmLabel: 'Approve the decision',
        fields: ['reason'],
        check: reasonOnly('approve'),
      };
    }
  }
}

/**
 * The actions a case's state allows, for this staff member: none once decided or withdrawn; Start
 * investigating while new; provisional credit until given; a decision unless one waits for a second
 * person, whom only another staff member can be.
 */
export function actionsFor(dispute: StaffDispute, staffId: string | undefined): DisputeActionKind[] {
  if (!openStatuses.includes(dispute.status)) return [];
  const actions: DisputeActionKind[] = [];
  if (dispute.status === 'submitted') actions.push('investigate');
  if (dispute.status !== 'provisionally_credited' && dispute.provisionalCreditCents === 0) actions.push('provisional-credit');
  actions.push('request-information');
  const pending = dispute.pendingDecision;
  if (!pending) actions.push('resolve', 'deny');
  else if (staffId !== undefined && pending.by !== staffId) actions.push('approve');
  return actions;
}
