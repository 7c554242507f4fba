import type { Database } from '../db/database.ts';

/** A statement sent through a recording database, its parameters, and whether it ran inside a transaction. */
export interface RecordedStatement {
  text: string;
  params: readonly unknown[];
  inTransaction: boolean;
  /** The pool's statements sent before this one and not yet answered when it was sent (in flight together). */
  alongside: readonly string[];
}

/**
 * The same database, writing down every statement sent through it, on the pool and inside its
 * transactions (nothing is faked: each goes on to the real database), and calling
 * `onTransaction` as each transaction begins. The handle still begins transactions, so what
 * batches lookups on the pool (db/batched-lookup.ts) batches through it.
 */
export function recordingStatements(db: Database, statements: RecordedStatement[], { onTransaction }: { onTransaction?: () => void } = {}): Database {
  const inFlight = new Set<RecordedStatement>();
  return {
    kind: db.kind,
    query: async (text, params, options) => {
      const statement = { text, params: params ?? [], inTransaction: false, alongside: [...inFlight].map((other) => other.text) };
      statements.push(statement);
      inFlight.add(statement);
      try {
        return await db.query(text, params, options);
      } finally {
        inFlight.delete(statement);
      }
    },
    transaction: (work, options) => {
      onTransaction?.();
      return db.transaction(
        (tx) =>
          work({
            executeScript: (script) => tx.executeScript(script),
            query: (text, queryParams, queryOptions) => {
              statements.push({ text, params: queryParams ?? [], inTransaction: true, alongside: [] });
              return tx.query(text, queryParams, queryOptions);
            },
          }),
        options,
      );
    },
    listen: (channel, onNotification, onReconnected) => db.listen(channel, onNotification, onReconnected),
    close: () => db.close(),
  };
}
