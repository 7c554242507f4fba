import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { z } from 'zod';

/**
 * Pennywise's own key (docs/connected-apps.md, "The sandbox's app"): the app proves who it is to the
 * bank with it (private_key_jwt), as a real data recipient would with a key only it holds. It is
 * made on the sandbox's first start and kept beside the sandbox's other secrets, owner-only, so the
 * public half the bank registered keeps matching after a restart.
 */
export const budgetAppKeyFileName = 'sandbox-budget-app.json';

/** ES256: one of the algorithms FAPI 2.0 allows for client authentication. */
const signingAlgorithm = 'ES256';

const storedKeySchema = z.object({
  privateJwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), kid: z.string(), x: z.string(), y: z.string(), d: z.string() }).loose(),
});

export interface BudgetAppKey {
  /** What the bank keeps: the public half, with its kid and alg. */
  publicJwk: JWK;
  privateKey: CryptoKey;
  kid: string;
}

async function keyOf(privateJwk: JWK & { kid: string }): Promise<BudgetAppKey> {
  const { d: _private, ...publicJwk } = privateJwk;
  const privateKey = await importJWK(privateJwk, signingAlgorithm);
  if (privateKey instanceof Uint8Array) throw new Error('the sandbox app’s key did not import as a CryptoKey');
  return { publicJwk: { ...publicJwk, alg: signingAlgorithm, use: 'sig' }, privateKey, kid: privateJwk.kid };
}

async function readStoredKey(file: string): Promise<BudgetAppKey | undefined> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  const { privateJwk } = storedKeySchema.parse(JSON.parse(text));
  return keyOf(privateJwk);
}

async function createKey(file: string): Promise<BudgetAppKey> {
  const { privateKey } = await generateKeyPair(signingAlgorithm, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const privateJwk = { ...jwk, kid: await calculateJwkThumbprint(jwk) };
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': another process that made the key first wins, and this one reads what it wrote.
    await writeFile(file, JSON.stringify({ privateJwk }, null, 2), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const stored = await readStoredKey(file);
    if (stored) return stored;
    throw error;
  }
  return keyOf(privateJwk);
}

/** The app's key from DATA_DIR/sandbox-budget-app.json, made and written there (mode 0600) when there is none yet. */
export async function loadBudgetAppKey(dataDirectory: string): Promise<BudgetAppKey> {
  const file = path.join(dataDirectory, budgetAppKeyFileName);
  return (await readStoredKey(file)) ?? createKey(file);
}
