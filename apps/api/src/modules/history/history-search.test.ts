import { randomBytes } from 'node:crypto';
import { headingParty, lineDescription, lineKindsBySide, type HistoryLineFacts, type LineSide } from '@strongroom/contracts/history-line.ts';
import { beforeAll, expect, it } from 'vitest';
import type { Database, Queryable } from '../../db/database.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { recordingStatements, type RecordedStatement } from '../../test/recording-database.ts';
import { createOnboardedCustomer } from '../onboarding/create-onboarded-customer.ts';
import { listLines } from './repository.ts';
import { searchPatternOf, searchPiecesOf, searchProbeOf } from './search-pattern.ts';
import { listTransactions } from './service.ts';

/** Enough lines on one account that reading it all costs more than a probe of the trigram index. */
const paymentCount = 20_000;

/** Every wording contracts' history-line.ts can give, with the characters whose case folds oddly. */
const messages = ['', '   ', '\u00a0\u3000\ufeff', 'Rent 100% paid', 'back\\slash_x', 'İstanbul \u212Aelvin', 'ÆRØ ΣΑΣ café'];
const counterparties: { name: string; bank: string | null; sender: string | null }[] = [
  { name: 'Corner Shop', bank: null, sender: null },
  { name: 'Ærø Supplies', bank: 'First Example Bank', sender: 'DANA İLHAN' },
];

function substringsOf(text: string): string[] {
  const found = new Set<string>();
  for (let start = 0; start < text.length; start += 1) {
    for (let end = start + 1; end <= text.length; end += 1) found.add(text.slice(start, end));
  }
  return [...found];
}

/** The queries a search sent (through the shared recording database), to explain the last one. */
function recording(db: Database): { db: Database; last: () => RecordedStatement | undefined; planOfLast: () => Promise<string> } {
  const seen: RecordedStatement[] = [];
  return {
    db: recordingStatements(db, seen),
    last: () => seen.at(-1),
    async planOfLast() {
      const query = seen.at(-1);
      if (!query) throw new Error('the search sent no query');
      const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.text}`, query.params);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    },
  };
}

/** The lines whose description contains "groceries 1234", newest first. */
const groceries1234 = ['Groceries 12348', 'Groceries 12346', 'Groceries 12344', 'Groceries 12342', 'Groceries 12340', 'Groceries 1234'];

describeEachDatabase('history search index', (database) => {
  let customerId: string;
  let checkingId: string;

  beforeAll(async () => {
    const customer = await createOnboardedCustomer(
      {
        db: database(),
        storage: { put: async () => undefined, get: async () => Buffer.alloc(0), remove: async () => undefined },
        encryptionKey: randomBytes(32),
      },
      { email: `search-${randomBytes(4).toString('hex')}@example.com`, password: 'a long test password', firstName: 'Search', lastName: 'Customer' },
    );
    customerId = customer.userId;
    const checking = customer.accounts.find((account) => account.type === 'checking');
    if (!checking) throw new Error('the customer has no checking account');
    checkingId = checking.id;
    // Even payments say "Groceries {i}"; odd ones say nothing, so their line reads "To Corner Shop, First Example Bank".
    await database().query(
      `INSERT INTO payments (id, customer_id, kind, status, from_account_id, amount_cents, counterparty_name, counterparty_bank_name, message, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'external', 'completed', $2, 100, 'Corner Shop', 'First Example Bank',
              CASE WHEN i % 2 = 0 THEN 'Groceries ' || i ELSE '' END, timestamptz '2020-01-01' + i * interval '1 minute', now()
       FROM generate_series(1, $3::integer) AS i`,
      [customerId, checking.id, paymentCount],
    );
    // Older than all of them, ten invoices whose numbers hold "1234" too, and no "groceries".
    await database().query(
      `INSERT INTO payments (id, customer_id, kind, status, from_account_id, amount_cents, counterparty_name, message, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'external', 'completed', $2, 100, 'Printer', 'Invoice 1234-' || i, timestamptz '2019-12-01' + i * interval '1 minute', now()
       FROM generate_series(1, 10) AS i`,
      [customerId, checking.id],
    );
    await database().query('ANALYZE payments');
  });

  /** Every line the search finds, page by page (or its first `pages` pages), as `id description`. */
  async function search(q: string, db: Queryable = database(), pages = Number.POSITIVE_INFINITY): Promise<string[]> {
    const lines: string[] = [];
    let cursor: string | undefined;
    let read = 0;
    do {
      const page = await listTransactions(db, customerId, { limit: 100, q, cursor });
      lines.push(...page.items.map((line) => `${line.id} ${line.description}`));
      cursor = page.nextCursor ?? undefined;
      read += 1;
    } while (cursor && read < pages);
    return lines;
  }

  it('lets through, for every text a line description or its party contains whatever its case, the line in SQL', async () => {
    for (const kind of new Set([...lineKindsBySide.in, ...lineKindsBySide.out])) {
      for (const message of messages) {
        // Only a card payment can pay a credit card ("Credit card payment").
        const variants = counterparties.flatMap((counterparty) =>
          (kind === 'card' ? [true, false] : [false]).map((paysCard) => [counterparty, paysCard] as const),
        );
        for (const [counterparty, paysCreditCard] of variants) {
          const facts: HistoryLineFacts = {
            kind,
            message,
            counterpartyName: counterparty.name,
            counterpartyBankName: counterparty.bank,
            senderName: counterparty.sender,
            paysCreditCard,
          };
          // The party as the heading names it (migration 0037): "To Corner Shop" beside "Rent 100% paid".
          const texts = (['in', 'out'] as const satisfies readonly LineSide[]).flatMap((side) =>
            [lineDescription(facts, side), headingParty(facts, side) ?? ''].flatMap((wording) => {
              const worded = wording.toLowerCase();
              return substringsOf(worded)
                .flatMap((text) => [text, text.toUpperCase()])
                .filter((text) => worded.includes(text.toLowerCase()));
            }),
          );
          const missed = await database().query<{ text: string }>(
            `SELECT text FROM unnest($6::text[], $7::text[]) AS searched(text, pattern)
             WHERE NOT history_search_text($1, $2, $3, $4, $5) LIKE pattern`,
            [kind, message, counterparty.name, counterparty.bank, counterparty.sender, texts, texts.map(searchPatternOf)],
          );
          expect(missed, `${kind} "${message}" ${counterparty.name}`).toEqual([]);
        }
      }
    }
  });

  it('finds a rare text through the trigram index, and the same lines for a rare and a common text as before', async () => {
    const [index] = await database().query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'payments_search'");
    expect(index?.indexdef).toMatch(/USING gin .*gin_trgm_ops/);

    const recorder = recording(database());
    const rare = await search('GROCERIES 1234', recorder.db);
    expect(rare.map((line) => line.split(' ').slice(1).join(' '))).toEqual(groceries1234);
    const plan = await recorder.planOfLast();
    expect(plan).toContain('payments_search');

    // A common text walks the account newest first; three full pages of it show the walk (all
    // 100 pages of the 10,000 lines took over a minute on PGlite on a busy machine).
    const common = await search('groceries', database(), 3);
    expect(common).toHaveLength(300);
    expect(common.every((line) => / Groceries \d+$/.test(line))).toBe(true);
    const newestEven = await database().query<{ id: string }>(
      "SELECT id FROM payments WHERE customer_id = $1 AND message LIKE 'Groceries %' ORDER BY created_at DESC, id DESC LIMIT 300",
      [customerId],
    );
    expect(common.map((line) => line.split(' ')[0])).toEqual(newestEven.map((row) => `${row.id}:out`));

    // The payee is named on every line, beside its reason or as it (decision 061): a search for
    // the payee finds the newest lines, whatever they say.
    const payee = await search('corner shop', database(), 1);
    const newest = await database().query<{ id: string }>(
      "SELECT id FROM payments WHERE customer_id = $1 AND counterparty_name = 'Corner Shop' ORDER BY created_at DESC, id DESC LIMIT 100",
      [customerId],
    );
    expect(payee.map((line) => line.split(' ')[0])).toEqual(newest.map((row) => `${row.id}:out`));
  });

  it('probes the index with a rare piece of the text when PostgreSQL estimates another piece far more common, else with the whole text', async () => {
    expect(searchPiecesOf('GROCERIES 1234')).toEqual(['%groceries%', '%1234%']);
    // Runs of three or more ASCII letters and digits, once each: a trigram holds nothing else.
    expect(searchPiecesOf('İstanbul, 100% paid; paid AT 9am')).toEqual(['%stanbul%', '%100%', '%paid%', '%9am%']);
    expect(searchPiecesOf('a to b 12 \\%_ ÆRØ')).toEqual([]);

    // The statistics of the index's expression (the test without pg_trgm makes the index again).
    await database().query('ANALYZE payments');
    // "groceries" is on every other line; "zqx" on none (its estimate is PostgreSQL's floor).
    expect(await searchProbeOf(database(), 'Groceries zqx')).toBe('%zqx%');
    // Both pieces on the same lines (every odd one), or both rare: the whole text narrows most.
    expect(await searchProbeOf(database(), 'Corner Shop')).toBe('%corner shop%');
    expect(await searchProbeOf(database(), 'zqx wvy')).toBe('%zqx wvy%');
    // One piece, or none the index could probe with: the whole text.
    expect(await searchProbeOf(database(), 'groceries 12')).toBe('%groceries 12%');
    expect(await searchProbeOf(database(), 'ÆRØ')).toBe(searchPatternOf('ÆRØ'));

    // The search past the newest lines probes with the piece, and filters with the whole text.
    const recorder = recording(database());
    expect(await search('Groceries zqx', recorder.db)).toEqual([]);
    const query = recorder.last();
    expect(query?.params).toEqual(expect.arrayContaining(['%groceries zqx%', '%zqx%']));
    const plan = await recorder.planOfLast();
    expect(plan).toMatch(/Index Cond: .* ~~ '%zqx%'::text\)/);
    expect(plan).toMatch(/Filter: .* ~~ '%groceries zqx%'::text\)/);
  });

  it('keeps, of the lines a probe with a piece finds, only those the whole pattern lets through', async () => {
    const query = { customerId, accountIds: [checkingId], sides: { out: null }, cursor: null, timeZone: 'UTC', limit: 100 } as const;
    const probed = await listLines(database(), { ...query, searchPattern: searchPatternOf('groceries 1234'), searchProbe: '%1234%' });
    const whole = await listLines(database(), { ...query, searchPattern: searchPatternOf('groceries 1234') });
    expect(probed.map((line) => line.message)).toEqual(groceries1234);
    expect(probed).toEqual(whole);
    // The piece alone lets the invoices through too.
    const piece = await listLines(database(), { ...query, searchPattern: '%1234%' });
    expect(piece.filter((line) => line.message.startsWith('Invoice 1234-'))).toHaveLength(10);
  });

  it('finds the same lines without pg_trgm, and makes the index when it is installed again', async () => {
    // Without the index each of these reads the whole account, computing the wording of every line.
    const before = { rare: await search('groceries 1234'), none: await search('no line says this') };
    await database().query('DROP EXTENSION pg_trgm CASCADE');
    expect(await database().query("SELECT 1 FROM pg_indexes WHERE indexname = 'payments_search'")).toEqual([]);
    const [missing] = await database().query<{ made: boolean }>('SELECT create_history_search_index() AS made');
    expect(missing?.made).toBe(false);
    expect({ rare: await search('groceries 1234'), none: await search('no line says this') }).toEqual(before);
    expect(before.rare).toHaveLength(6);
    expect(before.none).toEqual([]);

    await database().query('CREATE EXTENSION pg_trgm');
    const [made] = await database().query<{ made: boolean }>('SELECT create_history_search_index() AS made');
    expect(made?.made).toBe(true);
    expect(await database().query("SELECT 1 FROM pg_indexes WHERE indexname = 'payments_search'")).toHaveLength(1);
  }, 180_000);
});
