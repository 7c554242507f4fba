/**
 * `GET /me/export` (docs/product.md section 6, "The rest of the customer area"): a zip of the customer's
 * own data. The server writes README.txt from this list, and the Settings screen says what is
 * inside from it, so both tell the same story.
 */
export const dataExportPath = '/me/export';

/** A customer may download their data this many times in any hour; one more answers 429 rate_limited with Retry-After. */
export const dataExportsPerHour = 3;

/** The zip's name, dated with the day it was made (YYYY-MM-DD in the bank's time zone). */
export function dataExportFileName(date: string): string {
  return `my-data-${date}.zip`;
}

export interface DataExportFile {
  /** The file name in the zip; `<number>` stands for an account number. */
  name: string;
  /** One sentence, for the Settings screen and README.txt. */
  summary: string;
  /** Each field and what it holds, for README.txt. */
  fields: readonly (readonly [string, string])[];
}

export const dataExportFiles: readonly DataExportFile[] = [
  {
    name: 'profile.json',
    summary: 'Who you are to the bank: your name, email address, phone number and the identity details you gave us.',
    fields: [
      ['exportedAt', 'When this export was made (ISO 8601, UTC).'],
      ['bankName', 'The bank that holds this data.'],
      ['customer.id', 'Your customer number at the bank.'],
      ['customer.firstName, customer.lastName', 'Your name, as you gave it.'],
      ['customer.email, customer.emailVerified', 'Your email address and whether you confirmed it.'],
      ['customer.phoneNumber, customer.phoneVerified', 'Your mobile number (E.164) and whether you confirmed it.'],
      ['customer.joinedAt', 'When you signed up.'],
      ['customer.hasProfilePhoto', 'Whether you uploaded a profile photo (the image itself is not in the zip).'],
      [
        'identity',
        'Your latest identity check: status, country, state, address, the identity document number masked to its last characters (idNumberMasked), the reason if it was rejected (rejectionReason), when you submitted it and when it was decided; null if you never submitted one.',
      ],
    ],
  },
  {
    name: 'accounts.json',
    summary: 'Your accounts with their balances, your cards (masked: the last four digits only) and your saved payees.',
    fields: [
      ['accounts[].id, number, type, name, status', 'Each account: its id, its 10-digit number, checking or savings, its name and whether it is active.'],
      ['accounts[].balanceCents, availableCents', 'Its balance and available balance when the export was made, in cents.'],
      ['accounts[].transactionsFile', 'The file in this zip that lists its completed transactions.'],
      ['cards[].id, type, network, nameOnCard, last4, expiry, status, createdAt', 'Each card: never the full card number, never the security code.'],
      ['cards[].creditLimitCents', 'Credit cards only: the credit limit, in cents.'],
      ['payees[].accountName, accountNumber, routeNumber, bankName, nameOfCountry, bankType, createdAt', 'Each payee you saved, as you entered it.'],
    ],
  },
  {
    name: 'accounts/<number>/transactions.csv',
    summary: 'Every completed transaction of each account, oldest first, in the same columns as a CSV statement.',
    fields: [
      ['date', 'The day it completed (YYYY-MM-DD, in the bank’s time zone).'],
      ['transferId', 'The payment’s id, as the app and receipts show it.'],
      ['description, category', 'What it was, as the history shows it.'],
      ['amount', 'In dollars with two decimals; money out is negative.'],
      ['balance', 'The account’s balance after it.'],
    ],
  },
  {
    name: 'loans.json',
    summary: 'Your loans and applications with their terms, the Truth in Lending disclosure and every instalment of the schedule.',
    fields: [
      [
        'loans[].id, status, requestedAmountCents, annualIncomeCents, durationMonths, purpose, occupation, maritalStatus, address, createdAt',
        'Each application as you sent it, and where it stands.',
      ],
      [
        'loans[].amountCents, aprBps, termMonths, balanceCents, nextDueDate, nextPaymentCents, disbursedAt',
        'The approved terms and what is still owed (null before approval).',
      ],
      ['loans[].disclosure', 'The Truth in Lending box: amount financed, finance charge, APR and total of payments (null before approval).'],
      ['loans[].schedule[].number, dueDate, paymentCents, principalCents, interestCents, balanceAfterCents, status', 'Each instalment: due, paid or late.'],
    ],
  },
  {
    name: 'cards.json',
    summary:
      'Your cards (the last four digits only) with their limits, what each owes or has available, and every purchase made with them (up to the latest 10,000 a card).',
    fields: [
      ['cards[].id, type, network, nameOnCard, last4, expiry, status, createdAt', 'Each card: never the full card number, never the security code.'],
      [
        'cards[].availableCents, creditLimitCents, balanceOwedCents',
        'Debit: what the checking account has available. Credit: the available credit, the limit and what the card owes (credit cards only).',
      ],
      ['cards[].perTransactionLimitCents, monthlyLimitCents, spentThisMonthCents', 'The spending limits you set and what was spent this month.'],
      [
        'cards[].purchases[].id, merchantName, mcc, category, amountCents, clearedCents, status, declineReason, createdAt, releasesAt',
        'Each purchase the card was asked to pay: pending, cleared, reversed, expired or declined (and why).',
      ],
    ],
  },
  {
    name: 'linked-banks.json',
    summary: 'The accounts at other banks you linked to add money, masked as the app shows them (never the full account number).',
    fields: [
      ['linkedBanks[].id, accountName, accountType, routeNumber', 'Each linked account: the name on it, checking or savings, and its bank’s routing number.'],
      ['linkedBanks[].accountNumberMasked, last4', 'The account number masked to its last four digits.'],
      ['linkedBanks[].status, createdAt, verifiedAt', 'Whether it is waiting for the two small deposits, verified or could not be verified, and when.'],
    ],
  },
  {
    name: 'referrals.json',
    summary: 'Your referral code and link, and the friends who signed up with it: only whether and when each bonus was paid, never their names.',
    fields: [
      ['code, link', 'Your referral code and the sign-up link that carries it.'],
      ['referrals[].id, status, bonusCents, createdAt, paidAt', 'Each referral (the latest 100): waiting, paid or refused, the bonus and when it was paid.'],
      ['pendingCount, paidCount, paidCents', 'The totals of all your referrals.'],
    ],
  },
  {
    name: 'notifications.json',
    summary: 'The notifications the bank sent you in the app (up to the latest 10,000), read or not.',
    fields: [
      ['notifications[].id, kind, name, text, link', 'Each notification as the app showed it.'],
      ['notifications[].createdAt, read', 'When it was sent and whether you have read it.'],
    ],
  },
  {
    name: 'messages.json',
    summary: 'Your secure messages with support and every reply, newest thread first.',
    fields: [
      [
        'threads[].id, subject, status, createdAt, lastActivityAt, preview, messageCount, reportedEventId',
        'Each conversation: waiting for support or answered, its newest message in short, and the security event it reports if you opened it with "This wasn’t me".',
      ],
      ['threads[].entries[].author, text, createdAt', 'Each message in it: yours ("customer") or the bank’s ("bank").'],
      [
        'note',
        'Messages sent through the public contact form are not included: anyone can type an email address into that form, so the bank cannot tell that they were yours. Ask support if you want them.',
      ],
    ],
  },
  {
    name: 'audit.json',
    summary: 'Your security events: sign-ins, failed sign-ins, one-time codes, password and security changes, newest first.',
    fields: [
      ['events[].id, action, kind, title', 'What happened, as the security timeline in Settings names it.'],
      ['events[].at, outcome', 'When, and whether it succeeded.'],
      ['events[].device, ip', 'The device and browser, and the network address, it came from.'],
      ['events[].reported', 'Whether you told us "This wasn’t me" about it.'],
    ],
  },
];

/**
 * What the bank will add to the export once it offers it: neither exists yet (issue 39 item 8,
 * docs/decisions/061-export-everything-and-search-by-party.md). README.txt and the Settings screen say so.
 */
export const dataExportNotYet =
  'Card disputes and scheduled payments are not in the export because the bank does not offer them yet; they will be added when it does.';
