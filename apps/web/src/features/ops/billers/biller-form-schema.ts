import { z } from 'zod';
import { validationMessages } from '@strongroom/contracts/messages.ts';
import { isValidRoutingNumber } from '@strongroom/contracts/money-input.ts';
import {
  billCategories,
  billerAccountNumberRegExp,
  billerRequestSchema,
  type BillCategory,
  type BillerRequest,
  type StaffBiller,
} from '@strongroom/contracts/billers.ts';

/** The twelve categories in words, as the bill pay tiles name them. */
export const categoryLabels: Record<BillCategory, string> = {
  electricity: 'Electricity',
  water: 'Water',
  gas: 'Gas',
  food: 'Food',
  airfare: 'Airfare',
  cable: 'Cable TV',
  internet: 'Internet',
  hotel: 'Hotel',
  train: 'Train',
  bus: 'Bus',
  movie: 'Movie',
  other: 'Other',
};

export const categoryOptions = billCategories.map((value) => ({ value, label: categoryLabels[value] }));

export const paymentMethodLabels: Record<StaffBiller['paymentMethod'], string> = {
  ach: 'ACH credit to its bank account',
  simulator: 'Rail simulator (sandbox)',
};

const { shape } = billerRequestSchema;

/**
 * The dialog's form: the contract's fields and messages, with the bank account typed as text (asked
 * for ACH only), a pattern that must be a regular expression, and an example that must match it
 * whole: the server's checks and messages, so most refusals are said before anything is sent.
 */
export const billerFormSchema = z
  .object({
    name: shape.name,
    category: z.string().min(1, 'choose a category').pipe(shape.category),
    accountNumberPattern: shape.accountNumberPattern,
    accountNumberExample: shape.accountNumberExample,
    paymentMethod: shape.paymentMethod,
    routingNumber: z.string(),
    accountNumber: z.string(),
    active: z.boolean(),
    reason: shape.reason,
  })
  .superRefine((form, context) => {
    const pattern = billerAccountNumberRegExp(form.accountNumberPattern);
    if (form.accountNumberPattern.trim() !== '' && pattern === undefined)
      context.addIssue({ code: 'custom', path: ['accountNumberPattern'], message: 'the pattern is not a valid regular expression' });
    else if (pattern && form.accountNumberExample.trim() !== '' && !pattern.test(form.accountNumberExample.trim()))
      context.addIssue({ code: 'custom', path: ['accountNumberExample'], message: 'the example does not match the pattern' });
    if (form.paymentMethod !== 'ach') return;
    const routing = form.routingNumber.trim();
    const account = form.accountNumber.trim();
    const routingMessage =
      routing === ''
        ? "enter the biller's 9-digit routing number"
        : !/^\d{9}$/.test(routing)
          ? 'a routing number is 9 digits'
          : isValidRoutingNumber(routing)
            ? null
            : validationMessages.routeNumberInvalid;
    if (routingMessage) context.addIssue({ code: 'custom', path: ['routingNumber'], message: routingMessage });
    const accountMessage =
      account === '' ? "enter the biller's account number at its bank" : /^\d{4,17}$/.test(account) ? null : 'an account number is 4 to 17 digits';
    if (accountMessage) context.addIssue({ code: 'custom', path: ['accountNumber'], message: accountMessage });
  });

export type BillerForm = z.input<typeof billerFormSchema>;
export type BillerFormField = keyof BillerForm;

/** The form filled with a biller to edit, or empty for a new one. */
export function formOf(biller: StaffBiller | null): BillerForm {
  return {
    name: biller?.name ?? '',
    category: biller?.category ?? '',
    accountNumberPattern: biller?.accountNumberPattern ?? '',
    accountNumberExample: biller?.accountNumberExample ?? '',
    paymentMethod: biller?.paymentMethod ?? 'ach',
    routingNumber: biller?.routingNumber ?? '',
    accountNumber: biller?.accountNumber ?? '',
    active: biller?.active ?? true,
    reason: '',
  };
}

/** The request body from the checked form: no bank account for the simulator. */
export function requestOf(form: BillerForm): BillerRequest & { active: boolean } {
  const ach = form.paymentMethod === 'ach';
  return {
    name: form.name.trim(),
    category: form.category as BillCategory,
    accountNumberPattern: form.accountNumberPattern.trim(),
    accountNumberExample: form.accountNumberExample.trim(),
    paymentMethod: form.paymentMethod,
    routingNumber: ach ? form.routingNumber.trim() : null,
    accountNumber: ach ? form.accountNumber.trim() : null,
    active: form.active,
    reason: form.reason.trim(),
  };
}

export interface BillerChange {
  label: string;
  before: string | null;
  after: string;
}

/** A biller's fields as the confirmation compares them. */
type BillerValues = Omit<StaffBiller, 'id'>;

function wordsOf(values: BillerValues, key: keyof BillerValues): string {
  if (key === 'category') return categoryLabels[values.category];
  if (key === 'paymentMethod') return paymentMethodLabels[values.paymentMethod];
  if (key === 'active') return values.active ? 'Active: customers can choose it' : 'Inactive: hidden from customers';
  const value = values[key];
  return typeof value === 'string' && value !== '' ? value : '—';
}

const changeLabels: [keyof BillerValues, string][] = [
  ['name', 'Name'],
  ['category', 'Category'],
  ['accountNumberPattern', 'Account number pattern'],
  ['accountNumberExample', 'Example account number'],
  ['paymentMethod', 'How it is paid'],
  ['routingNumber', 'Routing number'],
  ['accountNumber', 'Bank account number'],
  ['active', 'Status'],
];

/** What saving changes, in words: every field of a new biller, only the changed ones of an edit. */
export function changesOf(before: StaffBiller | null, after: BillerRequest): BillerChange[] {
  return changeLabels
    .map(([key, label]) => ({ label, before: before ? wordsOf(before, key) : null, after: wordsOf({ ...after, active: after.active ?? true }, key) }))
    .filter((change) => (change.before === null ? change.after !== '—' : change.before !== change.after));
}
