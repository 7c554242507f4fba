import { z } from 'zod';
import { passwordField } from './auth.ts';
import { businessConstants } from './constants.ts';
import { emailField, plainString, textField } from './fields.ts';
import { validationMessages } from './messages.ts';

/**
 * The back office (docs/product.md D16 and section 6, "Staff"): roles, what each may do, sign-in and
 * the shape every queue decision shares. The server checks every staff route against
 * `rolePermissions`; the console only hides what a role cannot use.
 */
/** `finance` (issue 35) keeps the bank's own books: reports, adjusting entries, reconciliation; the contract's four roles are unchanged. */
export const staffRoles = ['support', 'compliance', 'operations', 'admin', 'finance'] as const;
export const staffRoleSchema = z.enum(staffRoles);
export type StaffRole = z.infer<typeof staffRoleSchema>;

export const staffPermissions = [
  'customers.read',
  'messages.reply',
  'identity.decide',
  'transfers.review',
  'cards.decide',
  'loans.decide',
  'payments.settle',
  'staff.manage',
  'settings.edit',
  'customers.freeze',
  'audit.read',
  /** Correcting a customer's email, phone or address with a reason (issue 39 item 7). */
  'customers.correct',
  /** Opening, closing and changing a customer's accounts for them, with a reason (issue 32 item 2). */
  'accounts.manage',
  /** Scheduling a product's new rates and fees, with a reason (issue 32 item 1): administrators only. */
  'products.edit',
  /** Refunding a customer's fee, with a reason and four eyes above a threshold (issue 32 item 4). */
  'fees.refund',
  /** Adding and changing bill pay's billers, with a reason (issue 33 item 1). */
  'billers.manage',
  /** Working customers' disputes: credit, ask, decide, with a reason (issue 34): operations and administrators. */
  'disputes.manage',
  /** Reading the bank's books: trial balance, balance sheet, income statement, closed days (issue 35). */
  'books.read',
  /** Posting an adjusting entry on the open day, with a reason and four eyes above a threshold (issue 35 item 3). */
  'books.adjust',
  /** Importing the settlement bank's statements and resolving reconciliation exceptions (issue 35 item 4). */
  'reconciliation.manage',
  /** Registering, changing, enabling and disabling connected apps (data recipients), with a reason (issue 38 item 2). */
  'connected_apps.manage',
] as const;
export const staffPermissionSchema = z.enum(staffPermissions);
export type StaffPermission = z.infer<typeof staffPermissionSchema>;

/** The contract's matrix, exactly; admin has every permission. */
export const rolePermissions: Readonly<Record<StaffRole, readonly StaffPermission[]>> = {
  support: ['customers.read', 'messages.reply'],
  compliance: ['customers.read', 'identity.decide', 'transfers.review'],
  operations: ['customers.read', 'cards.decide', 'loans.decide', 'payments.settle', 'accounts.manage', 'fees.refund', 'billers.manage', 'disputes.manage'],
  admin: staffPermissions,
  finance: ['books.read', 'books.adjust', 'reconciliation.manage'],
};

export function roleHas(role: StaffRole, permission: StaffPermission): boolean {
  return rolePermissions[role].includes(permission);
}

/** The authenticator's current code: six digits (RFC 6238 with SHA-1, 30 s steps). */
export const totpCodeField = plainString()
  .min(1, validationMessages.required)
  .regex(/^\s*\d{3}\s?\d{3}\s*$/, 'enter the 6-digit code from your authenticator app')
  .transform((code) => code.replace(/\s/g, ''));

export const staffLoginRequestSchema = z.object({
  email: emailField,
  password: plainString().min(1, validationMessages.required).max(businessConstants.passwordMaxLength, validationMessages.passwordTooLong),
  code: totpCodeField,
});
export type StaffLoginRequest = z.input<typeof staffLoginRequestSchema>;

export const staffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  permissions: z.array(staffPermissionSchema),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/** `GET /staff/me` and the answer to a sign-in. */
export const staffMeResponseSchema = z.object({ staff: staffMemberSchema });
export type StaffMeResponse = z.infer<typeof staffMeResponseSchema>;

/** A reason for a decision: 3 to 500 characters, required (section 6). */
export const decisionReasonField = textField(500).pipe(z.string().min(3, 'the reason needs at least 3 characters'));

/** Every queue's decision body: `{ decision, reason }`; each queue gives its own decision words. */
export function decisionRequestSchema<const Words extends readonly [string, ...string[]]>(words: Words) {
  return z.object({
    decision: z.enum(words, { error: `decision is one of: ${words.join(', ')}` }),
    reason: decisionReasonField,
  });
}

/** Staff management (admin, `staff.manage`). */
export const staffAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  status: z.enum(['active', 'disabled']),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type StaffAccount = z.infer<typeof staffAccountSchema>;
export const staffListResponseSchema = z.object({ items: z.array(staffAccountSchema) });

export const createStaffRequestSchema = z.object({
  email: emailField,
  password: passwordField,
  role: staffRoleSchema,
  reason: decisionReasonField,
});
export type CreateStaffRequest = z.input<typeof createStaffRequestSchema>;

/** What a new staff member (or a reset second factor) needs once: shown to the admin, never again. */
export const staffEnrolmentSchema = z.object({
  staffId: z.string(),
  role: staffRoleSchema,
  totpSecret: z.string(),
  otpauthUri: z.string(),
  /** The same URI as an SVG QR code, for the console to show. */
  qrSvg: z.string(),
});
export type StaffEnrolment = z.infer<typeof staffEnrolmentSchema>;

export const changeStaffRoleRequestSchema = z.object({ role: staffRoleSchema, reason: decisionReasonField });
export const staffReasonRequestSchema = z.object({ reason: decisionReasonField });

export const staffPasswordChangeSchema = z
  .object({
    currentPassword: plainString().min(1, validationMessages.required).max(businessConstants.passwordMaxLength, validationMessages.passwordTooLong),
    password: passwordField,
    confirmPassword: plainString().min(1, validationMessages.required),
  })
  .refine((form) => form.password === form.confirmPassword, { path: ['confirmPassword'], error: validationMessages.passwordsDoNotMatch });
export type StaffPasswordChange = z.infer<typeof staffPasswordChangeSchema>;

/** Sandbox only: the bootstrap admin's sign-in with its current code, for `/ops/login`'s "use the sandbox admin". */
export const sandboxStaffSignInSchema = z.object({ email: z.string(), password: z.string(), code: z.string() });
export type SandboxStaffSignIn = z.infer<typeof sandboxStaffSignInSchema>;
