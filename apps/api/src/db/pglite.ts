import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { secureDataDirectory } from './data-directory.ts';
import { assertChannelName, beginStatement, parseInt8, postgresTypeOids, type Database, type Queryable } from './database.ts';

interface PgliteSource {
  /** A directory for the data, or undefined for an in-memory database (tests). */
  dataDir?: string;
  /** A data directory dumped by `dumpDataDir`, to start from a migrated template (tests). */
  loadDataDir?: Blob | File;
}

/**
 * PGlite runs PostgreSQL in this process. It has one connection, so PGlite queues every query
 * and transaction behind the one running; that also makes `FOR UPDATE` trivially uncontended.
 */
export async function openPglite(source: PgliteSource): Promise<Database & { dump(): Promise<Blob> }> {
  if (source.dataDir) await secureDataDirectory(source.dataDir);
  const pglite = new PGlite({
    dataDir: source.dataDir,
    loadDataDir: source.loadDataDir,
    parsers: { [postgresTypeOids.int8]: parseInt8 },
    // Shipped inside the package (no download); history search's index needs it loaded at every
    // open once a migration created it (docs/decisions/046-history-search-index.md).
    extensions: { pg_trgm },
  });
  await pglite.waitReady;
  // A new database (or one loaded from a dump) was just written as 0666 files; the directory above
  // them was owner-only all along, so nobody else could reach them in between.
  if (source.dataDir) await secureDataDirectory(source.dataDir);

  const asQueryable = (target: Pick<PGlite, 'query'>): Queryable => ({
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(text, params as unknown[]);
      return result.rows;
    },
  });
  const root = asQueryable(pglite);

  return {
    kind: 'pglite',
    query: root.query,
    async transaction(work, options) {
      return pglite.transaction(async (tx) => {
        if (options?.isolation) await tx.query(beginStatement(options).replace('BEGIN', 'SET TRANSACTION'));
        return work({ ...asQueryable(tx), executeScript: async (script) => void (await tx.exec(script)) });
      });
    },
    async listen(channel, onNotification) {
      assertChannelName(channel);
      // One connection inside this process: it is never lost, so there is nothing to make up for.
      const stop = await pglite.listen(channel, onNotification);
      return async () => {
        if (!pglite.closed) await stop();
      };
    },
    async close() {
      if (!pglite.closed) await pglite.close();
    },
    /**
     * The data directory as a tarball (the ops `backup`, test templates). PGlite runs every query
     * and transaction behind one lock; taking that lock means no transaction is open while the
     * files are read, and PostgreSQL does nothing else meanwhile: the copy is one moment, from
     * which a restored database starts as after a crash at that moment (its write-ahead log
     * replayed): every committed transaction in, nothing half-done.
     */
    async dump() {
      return pglite._runExclusiveTransaction(() => pglite.dumpDataDir('none'));
    },
  };
}
