import { dataExportFileName, dataExportFiles, dataExportNotYet, dataExportsPerHour } from '@strongroom/contracts/data-export.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf, type CustomerActor } from '../../platform/request-actor.ts';
import { accountsWithBalances } from '../accounts/service.ts';
import { listSavedBeneficiaries } from '../beneficiaries/service.ts';
import { listBillPayees } from '../bill-payees/service.ts';
import { cardsOf, type CardDependencies } from '../cards/service.ts';
import { presentCustomerContact } from '../customers/service.ts';
import { recentNotifications } from '../notifications/service.ts';
import { exportSecureMessages } from '../secure-messages/service.ts';
import { exportSecurityEvents } from '../security-events/service.ts';
import { openAccountHistory, statementCsv } from '../statements/service.ts';
import { cardsFile, exportedCard, linkedBanksFile, loansFile, referralsFile } from './product-files.ts';
import { dataExportAction, findProfile, recentExports, secondsUntilOutOfWindow, type ProfileRow } from './repository.ts';
import { zipStream, type ZipEntry } from './zip.ts';

export interface DataExportDependencies {
  db: Database;
  config: Pick<Config, 'bankName' | 'bankTimeZone' | 'publicUrl'>;
  cards: CardDependencies;
}

export interface DataExport {
  fileName: string;
  /** The zip, a piece at a time; nothing of the ledger is read before the reply asks for it. */
  body: AsyncGenerator<Uint8Array, void, undefined>;
}

const windowSeconds = 3_600;
/** notifications.json holds the latest this many (README.txt says so). */
export const notificationsExportLimit = 10_000;
/** JSON arrays are written this many items to a piece. */
const itemsPerPiece = 500;

/** `••••1234`: the last characters of an identity number, as the app shows card numbers. */
function masked(last: string | null): string | null {
  return last === null ? null : `••••${last}`;
}

function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

function localDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `{ "<key>": [ ...items ] }`, written a few hundred items at a time. */
async function* jsonList<T>(key: string, items: () => Promise<readonly T[]>): AsyncGenerator<string, void, undefined> {
  const list = await items();
  yield `{\n  ${JSON.stringify(key)}: [`;
  for (let start = 0; start < list.length; start += itemsPerPiece) {
    yield list
      .slice(start, start + itemsPerPiece)
      .map((item, index) => `${start + index === 0 ? '' : ','}\n    ${JSON.stringify(item)}`)
      .join('');
  }
  yield list.length === 0 ? ']\n}\n' : '\n  ]\n}\n';
}

export function transactionsFileName(accountNumber: string): string {
  return `accounts/${accountNumber}/transactions.csv`;
}

function profileOf(profile: ProfileRow, bankName: string, exportedAt: Date) {
  return {
    exportedAt: exportedAt.toISOString(),
    bankName,
    customer: {
      ...presentCustomerContact(profile),
      joinedAt: profile.created_at.toISOString(),
      hasProfilePhoto: profile.profile_photo_file_id !== null,
    },
    identity:
      profile.identity_status === null
        ? null
        : {
            status: profile.identity_status,
            country: profile.identity_country,
            state: profile.identity_state,
            address: profile.identity_address,
            idNumberMasked: masked(profile.identity_id_number_last4),
            rejectionReason: profile.identity_reason,
            submittedAt: iso(profile.identity_submitted_at),
            decidedAt: iso(profile.identity_decided_at),
          },
  };
}

export function readmeText(bankName: string, customerName: string, exportedAt: Date): string {
  const lines = [
    `Your data at ${bankName}`,
    '',
    `Exported for ${customerName} on ${exportedAt.toISOString()} (UTC).`,
    'JSON files are UTF-8; amounts in fields named ...Cents are whole cents (12345 is $123.45); times are ISO 8601 in UTC.',
    '',
    'What each file holds:',
  ];
  for (const file of dataExportFiles) {
    lines.push('', file.name, `  ${file.summary}`);
    for (const [field, meaning] of file.fields) lines.push(`  - ${field}: ${meaning}`);
  }
  lines.push(
    '',
    'Never in this zip, because they would let someone else act as you: your password (the bank keeps only a hash of it, and not',
    'even that is here), full card numbers and security codes, the full number of your identity document, session cookies,',
    'one-time codes, authenticator-app secrets, recovery codes and passkey keys. Your profile photo and the picture of your',
    'identity document are not included either; support can send you copies. A linked account at another bank shows its last',
    'four digits only, as the app shows it.',
    '',
    dataExportNotYet,
    '',
    'Keep this file safe: it holds your personal and financial details.',
  );
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Counts this export against the hourly allowance and records it, in one transaction: at most
 * `dataExportsPerHour` an hour per customer, counted from the audit log so every API process agrees.
 */
async function claimExport(db: Database, actor: CustomerActor): Promise<Date> {
  return db.transaction(async (tx) => {
    const recent = await recentExports(tx, actor.customerId, windowSeconds);
    if (recent.count >= dataExportsPerHour && recent.oldest) {
      const retryAfterSeconds = await secondsUntilOutOfWindow(tx, recent.oldest, windowSeconds);
      throw new AppError('rate_limited', `You can download your data ${dataExportsPerHour} times an hour; try again later`, { retryAfterSeconds });
    }
    await recordAudit(
      tx,
      auditEntryOf(actor, {
        action: dataExportAction,
        subject: actor.customerId,
        outcome: 'success',
      }),
    );
    return new Date();
  });
}

/** `accounts.json`: the accounts with their balances and the name of each one's transactions file, the cards (last four only) and the saved payees. */
function accountsFileOf(
  accounts: Awaited<ReturnType<typeof accountsWithBalances>>,
  cards: Awaited<ReturnType<typeof cardsOf>>,
  payees: Awaited<ReturnType<typeof listSavedBeneficiaries>>,
  billPayees: Awaited<ReturnType<typeof listBillPayees>>,
) {
  return {
    accounts: accounts.map((account) => ({
      id: account.id,
      number: account.number,
      type: account.type,
      name: account.name,
      status: account.status,
      balanceCents: Number(account.balanceCents),
      availableCents: Number(account.availableCents),
      transactionsFile: transactionsFileName(account.number),
    })),
    cards: cards.map((card) => ({
      ...exportedCard(card),
      createdAt: card.createdAt,
      ...(card.creditLimitCents === undefined ? {} : { creditLimitCents: card.creditLimitCents }),
    })),
    payees: payees.map((payee) => ({
      id: payee.id,
      accountName: payee.accountName,
      accountNumber: payee.accountNumber,
      routeNumber: payee.routeNumber,
      bankName: payee.bankName,
      nameOfCountry: payee.nameOfCountry,
      bankType: payee.bankType,
      createdAt: payee.createdAt,
    })),
    // Bill Pay's payees (issue 33): the account number at the biller by its last four characters, as every screen shows it.
    billPayees,
  };
}

/** Runs `open` on the database the export reads from, which stays open for the zip's later reads (platform/read-your-writes.ts). */
export type ExportReader = (open: (reader: Database) => Promise<DataExport>) => Promise<DataExport>;

/**
 * Starts a data export (docs/product.md section 6): at most `dataExportsPerHour` an hour per customer,
 * counted from the audit log (each export is an audit row), so every API process agrees. Reads
 * the small files now and each account's transactions only when the zip reaches them. The claim
 * writes on the primary; everything read after it is read through `readOn` (a replica that has
 * replayed the claim, or the primary), the primary itself when not given.
 */
export async function startDataExport(
  dependencies: DataExportDependencies,
  actor: CustomerActor,
  readOn: ExportReader = (open) => open(dependencies.db),
): Promise<DataExport> {
  const exportedAt = await claimExport(dependencies.db, actor);
  return readOn((reader) => readDataExport({ ...dependencies, db: reader, cards: { ...dependencies.cards, db: reader } }, actor, exportedAt));
}

async function readDataExport(dependencies: DataExportDependencies, actor: CustomerActor, exportedAt: Date): Promise<DataExport> {
  const { db, config } = dependencies;
  const profile = await findProfile(db, actor.customerId);
  if (!profile) throw new AppError('not_found', 'No such customer');
  const accounts = await accountsWithBalances(db, actor.customerId, profile.identity_status === 'approved');
  const cards = await cardsOf(dependencies.cards, actor.customerId);
  const payees = await listSavedBeneficiaries(db, actor.customerId);
  const billPayees = await listBillPayees(db, actor.customerId);

  const accountsFile = accountsFileOf(accounts, cards, payees, billPayees);

  const entries: ZipEntry[] = [
    {
      name: 'README.txt',
      content: async function* () {
        yield readmeText(config.bankName, `${profile.first_name} ${profile.last_name}`, exportedAt);
      },
    },
    {
      name: 'profile.json',
      content: async function* () {
        yield json(profileOf(profile, config.bankName, exportedAt));
      },
    },
    {
      name: 'accounts.json',
      content: async function* () {
        yield json(accountsFile);
      },
    },
    ...accounts.map((account): ZipEntry => ({
      name: transactionsFileName(account.number),
      content: async function* () {
        yield* statementCsv(await openAccountHistory(db, config, actor.customerId, account.id));
      },
    })),
    {
      name: 'loans.json',
      content: async function* () {
        yield json(await loansFile(db, actor.customerId));
      },
    },
    {
      name: 'cards.json',
      content: async function* () {
        yield json(await cardsFile(dependencies.cards, actor.customerId));
      },
    },
    {
      name: 'linked-banks.json',
      content: async function* () {
        yield json(await linkedBanksFile(db, actor.customerId));
      },
    },
    {
      name: 'referrals.json',
      content: async function* () {
        yield json(await referralsFile(db, config.publicUrl, actor.customerId));
      },
    },
    { name: 'notifications.json', content: () => jsonList('notifications', () => recentNotifications(db, actor.customerId, notificationsExportLimit)) },
    { name: 'messages.json', content: () => jsonList('threads', () => exportSecureMessages(db, actor.customerId)) },
    { name: 'audit.json', content: () => jsonList('events', () => exportSecurityEvents(db, actor.customerId)) },
  ];

  return {
    fileName: dataExportFileName(localDate(exportedAt, config.bankTimeZone)),
    body: zipStream(entries, exportedAt),
  };
}
