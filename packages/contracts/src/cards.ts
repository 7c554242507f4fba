import { z } from 'zod';
import { centsSchema } from './accounts.ts';
import { plainString, textField } from './fields.ts';
import { validationMessages } from './messages.ts';
import { paymentAmountCentsSchema } from './payments.ts';
import { decisionReasonField } from './staff.ts';

/**
 * Cards (docs/product.md section 6 "Cards", D9; seed-spec sections 2, 4 and 5). The full card number
 * crosses the wire in exactly one answer: `POST /cards/{id}/reveal`. Everything else carries the
 * last four digits only; the CVV is never stored (derived on reveal from the number and expiry).
 */
export const cardTypes = ['debit', 'credit'] as const;
export const cardTypeSchema = z.enum(cardTypes, { error: 'card type is Debit Card or Credit Card' });
export type CardType = z.infer<typeof cardTypeSchema>;

export const cardNetworks = ['visa', 'mastercard'] as const;
export const cardNetworkSchema = z.enum(cardNetworks, { error: 'card network is Visa Card or Master Card' });
export type CardNetwork = z.infer<typeof cardNetworkSchema>;

/** The seed's words for the choices on the request form. */
export const cardTypeLabels: Readonly<Record<CardType, string>> = { debit: 'Debit Card', credit: 'Credit Card' };
export const cardNetworkLabels: Readonly<Record<CardNetwork, string>> = { visa: 'Visa Card', mastercard: 'Master Card' };

export const cardStatuses = ['pending_approval', 'active', 'frozen', 'rejected', 'closed'] as const;
export const cardStatusSchema = z.enum(cardStatuses);
export type CardStatus = z.infer<typeof cardStatusSchema>;

/** Card rules, with their units last. */
export const cardRules = {
  /** A card is valid for three years from issue. */
  validityYears: 3,
  /** An authorisation nobody cleared is released after seven days (the ledger's pending timeout). */
  authorizationHoldDays: 7,
  /** The most a customer may allow per transaction / per calendar month (the bank's maximum). */
  maxPerTransactionLimitCents: 1_000_000,
  maxMonthlyLimitCents: 5_000_000,
  /** Limits a new card starts with. */
  defaultPerTransactionLimitCents: 250_000,
  defaultMonthlyLimitCents: 1_000_000,
  /** Credit limits staff may grant. */
  minCreditLimitCents: 10_000,
  maxCreditLimitCents: 5_000_000,
  /** The revealed number is hidden again after this long on screen. */
  revealVisibleSeconds: 30,
} as const;

/**
 * The seed's words for the refusals of the request form (section 5, D12). A customer with no open
 * account is told why in `noAccountMessage` (messages.ts), not the seed's 'No account found! contact
 * customer care support' (decision 057).
 */
export const cardMessages = {
  needsCheckingAndSavings: 'A card needs an open checking account and an open savings account.',
  savingsBalanceRequired: 'Creating a card requires an available balance of $500 on your savings account',
  pendingApproval: 'Your card request is awaiting approval. Approval takes up to 3 days.',
} as const;

export const cardSchema = z.object({
  id: z.string(),
  type: cardTypeSchema,
  network: cardNetworkSchema,
  nameOnCard: z.string(),
  last4: z.string(),
  /** "MM/YY". */
  expiry: z.string(),
  status: cardStatusSchema,
  /** Debit: the linked checking account's available balance. Credit: available credit. */
  balanceCents: centsSchema,
  /** Credit cards only. */
  creditLimitCents: centsSchema.optional(),
  /** Credit cards only: what the customer owes on the card (posted purchases less payments). */
  balanceOwedCents: centsSchema.optional(),
  perTransactionLimitCents: centsSchema,
  monthlyLimitCents: centsSchema,
  /** Spent this calendar month (pending holds and cleared purchases), against the monthly limit. */
  spentThisMonthCents: centsSchema,
  /** Why staff rejected the request (rejected cards only). */
  rejectionReason: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Card = z.infer<typeof cardSchema>;

export const cardListResponseSchema = z.object({ items: z.array(cardSchema) });
export type CardListResponse = z.infer<typeof cardListResponseSchema>;
export const cardResponseSchema = z.object({ card: cardSchema });
export type CardResponse = z.infer<typeof cardResponseSchema>;

export const nameOnCardMaxLength = 26;
export const nameOnCardMessages = {
  invalid: 'use letters A to Z, spaces and hyphens only, as the card prints them',
} as const;

/**
 * What the card prints, as embossers print it: letters A-Z in capitals, words parted by one space
 * or a hyphen (decision 060). Lower case is raised and accents dropped ("Zoë" prints "ZOE"), and
 * runs of spaces close up; digits, emoji and other signs are refused with one message.
 */
export function nameAsCardPrintsIt(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').toUpperCase().replace(/\s+/g, ' ');
}

export const nameOnCardField = textField(nameOnCardMaxLength)
  .overwrite(nameAsCardPrintsIt)
  .regex(/^[A-Z]+(?:[ -][A-Z]+)*$/, nameOnCardMessages.invalid);

export const createCardRequestSchema = z.object({
  cardType: cardTypeSchema,
  cardNetwork: cardNetworkSchema,
  nameOnCard: nameOnCardField,
});
export type CreateCardRequest = z.input<typeof createCardRequestSchema>;

/** `POST /cards/{id}/reveal` (after a step-up, every time): the only answer with the full number. */
export const cardRevealResponseSchema = z.object({ number: z.string(), cvv: z.string(), expiry: z.string() });
export type CardRevealResponse = z.infer<typeof cardRevealResponseSchema>;

/** `PUT /cards/{id}/limits`: the customer's own limits, each up to the bank's maximum. */
export const cardLimitsRequestSchema = z.object({
  perTransactionLimitCents: paymentAmountCentsSchema.refine(
    (cents) => cents <= cardRules.maxPerTransactionLimitCents,
    'the limit per transaction is at most $10,000.00',
  ),
  monthlyLimitCents: paymentAmountCentsSchema.refine((cents) => cents <= cardRules.maxMonthlyLimitCents, 'the monthly limit is at most $50,000.00'),
});
export type CardLimitsRequest = z.input<typeof cardLimitsRequestSchema>;

/** "Card number viewed": each reveal, which the customer can read on the card's page. */
export const cardRevealEventSchema = z.object({ at: z.iso.datetime(), device: z.string(), ip: z.string().nullable() });
export const cardRevealListResponseSchema = z.object({ items: z.array(cardRevealEventSchema) });
export type CardRevealEvent = z.infer<typeof cardRevealEventSchema>;

export const authorizationStatuses = ['pending', 'cleared', 'reversed', 'expired', 'declined'] as const;
export const authorizationStatusSchema = z.enum(authorizationStatuses);
export type AuthorizationStatus = z.infer<typeof authorizationStatusSchema>;

export const declineReasons = [
  'card_frozen',
  'card_closed',
  'card_not_active',
  'card_expired',
  'wrong_cvv',
  'wrong_expiry',
  'unknown_card',
  'over_transaction_limit',
  'over_monthly_limit',
  'insufficient_funds',
  'insufficient_credit',
] as const;
export const declineReasonSchema = z.enum(declineReasons);
export type DeclineReason = z.infer<typeof declineReasonSchema>;

export const declineReasonLabels: Readonly<Record<DeclineReason, string>> = {
  card_frozen: 'Card frozen',
  card_closed: 'Card closed',
  card_not_active: 'Card not active',
  card_expired: 'Card expired',
  wrong_cvv: 'Wrong security code',
  wrong_expiry: 'Wrong expiry date',
  unknown_card: 'Unknown card',
  over_transaction_limit: 'Over the limit per transaction',
  over_monthly_limit: 'Over the monthly limit',
  insufficient_funds: 'Not enough money in the account',
  insufficient_credit: 'Not enough available credit',
};

/** A card transaction as the card's page lists it (`GET /cards/{id}/transactions`). */
export const cardTransactionSchema = z.object({
  id: z.string(),
  merchantName: z.string(),
  mcc: z.string(),
  category: z.string(),
  amountCents: centsSchema,
  /** What cleared (may be less than authorised); null until cleared. */
  clearedCents: centsSchema.nullable(),
  status: authorizationStatusSchema,
  declineReason: declineReasonSchema.nullable(),
  createdAt: z.iso.datetime(),
  /** Pending holds: when the hold is released if nobody clears it. */
  releasesAt: z.iso.datetime().nullable(),
});
export type CardTransaction = z.infer<typeof cardTransactionSchema>;
export const cardTransactionListResponseSchema = z.object({ items: z.array(cardTransactionSchema) });

/** `POST /cards/{id}/payments` (credit cards; Idempotency-Key): pay what is owed from checking. */
export const cardPaymentRequestSchema = z.object({
  fromAccountId: z.uuid({ error: validationMessages.required }),
  amountCents: paymentAmountCentsSchema,
});
export type CardPaymentRequest = z.input<typeof cardPaymentRequestSchema>;

/** The sandbox card network (`/dev/card-network/*`), and the staff simulation page that fires the same events. */
export const mccField = plainString().regex(/^\d{4}$/, 'a merchant category code is four digits');
export const authorizationRequestSchema = z.object({
  cardNumber: plainString().transform((value) => value.replace(/[\s-]/g, '')),
  expiry: plainString().regex(/^\d{2}\/\d{2}$/, 'expiry is MM/YY'),
  cvv: plainString().regex(/^\d{3}$/, 'the security code is three digits'),
  amountCents: paymentAmountCentsSchema,
  merchantName: textField(80),
  mcc: mccField,
});
export type AuthorizationRequest = z.input<typeof authorizationRequestSchema>;
export const authorizationSchema = z.object({
  id: z.string(),
  status: z.enum(['approved', 'declined']),
  declineReason: declineReasonSchema.optional(),
});
export const authorizationResponseSchema = z.object({ authorization: authorizationSchema });
export const clearAuthorizationRequestSchema = z.object({ amountCents: paymentAmountCentsSchema.optional() });

/** Merchant category codes (ISO 18245) the history names; anything else is "Shopping". */
export const merchantCategories: Readonly<Record<string, string>> = {
  '5411': 'Groceries',
  '5812': 'Restaurants',
  '5814': 'Fast food',
  '5541': 'Fuel',
  '5542': 'Fuel',
  '4111': 'Transport',
  '4121': 'Taxis',
  '4511': 'Air travel',
  '7011': 'Hotels',
  '5732': 'Electronics',
  '5912': 'Pharmacy',
  '5999': 'Shopping',
  '4900': 'Utilities',
  '7832': 'Cinema',
  '5942': 'Books',
};
export function merchantCategory(mcc: string): string {
  return merchantCategories[mcc] ?? 'Shopping';
}

/** The back office's card queue (`cards.decide`). */
export const staffCardListQuerySchema = z.object({
  status: cardStatusSchema.default('pending_approval'),
  cursor: plainString().max(200).optional(),
});
export const staffCardSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  customerEmail: z.string(),
  type: cardTypeSchema,
  network: cardNetworkSchema,
  nameOnCard: z.string(),
  last4: z.string().nullable(),
  status: cardStatusSchema,
  /** The customer's standing: identity status, accounts' available balances, when they joined. */
  standing: z.object({
    identityStatus: z.string(),
    checkingAvailableCents: centsSchema.nullable(),
    savingsAvailableCents: centsSchema.nullable(),
    customerSince: z.iso.datetime(),
    frozen: z.boolean(),
    openCards: z.number().int(),
  }),
  creditLimitCents: centsSchema.nullable(),
  reason: z.string().nullable(),
  requestedAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  decidedBy: z.string().nullable(),
});
export type StaffCard = z.infer<typeof staffCardSchema>;
export const staffCardListSchema = z.object({ items: z.array(staffCardSchema), nextCursor: z.string().nullable(), total: z.number().int() });
export type StaffCardList = z.infer<typeof staffCardListSchema>;

export const cardDecisionRequestSchema = z.object({
  decision: z.enum(['approve', 'reject'], { error: 'decision is one of: approve, reject' }),
  reason: decisionReasonField,
  creditLimitCents: paymentAmountCentsSchema
    .refine((cents) => cents >= cardRules.minCreditLimitCents && cents <= cardRules.maxCreditLimitCents, 'a credit limit is $100.00 to $50,000.00')
    .optional(),
});
export type CardDecisionRequest = z.input<typeof cardDecisionRequestSchema>;
export const staffCardResponseSchema = z.object({ card: staffCardSchema });

/**
 * Added by the cards API: clearing or reversing an authorisation answers the authorisation (as
 * `authorizationResponseSchema`) and the card transaction it became.
 */
export const authorizationOutcomeResponseSchema = authorizationResponseSchema.extend({ transaction: cardTransactionSchema });
export type AuthorizationOutcomeResponse = z.infer<typeof authorizationOutcomeResponseSchema>;

/** The console's simulator (`payments.settle`, sandbox): the stored card's number, with optional wrong CVV or expiry to simulate. */
export const staffAuthorizationRequestSchema = z.object({
  cardId: z.uuid({ error: validationMessages.required }),
  amountCents: paymentAmountCentsSchema,
  merchantName: textField(80),
  mcc: mccField,
  cvv: plainString()
    .regex(/^\d{3}$/, 'the security code is three digits')
    .optional(),
  expiry: plainString()
    .regex(/^\d{2}\/\d{2}$/, 'expiry is MM/YY')
    .optional(),
  /** Every staff action carries a reason for the audit log (3-500 characters). */
  reason: decisionReasonField,
});
export type StaffAuthorizationRequest = z.input<typeof staffAuthorizationRequestSchema>;
export const staffClearAuthorizationRequestSchema = clearAuthorizationRequestSchema.extend({ reason: decisionReasonField });
export const staffReverseAuthorizationRequestSchema = z.object({ reason: decisionReasonField });
export const staffAuthorizationListQuerySchema = z.object({ cardId: plainString().max(64) });
