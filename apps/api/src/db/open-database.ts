import path from 'node:path';
import type { Database } from './database.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

export interface DatabaseSettings {
  databaseUrl?: string;
  dataDirectory: string;
}

/** PostgreSQL when `DATABASE_URL` is set, otherwise PGlite under `DATA_DIR/pglite`. */
export async function openDatabase(settings: DatabaseSettings): Promise<Database> {
  if (settings.databaseUrl) return openPostgres(settings.databaseUrl);
  return openPglite({ dataDir: path.join(settings.dataDirectory, 'pglite') });
}
