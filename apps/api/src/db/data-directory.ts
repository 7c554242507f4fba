import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * DATA_DIR holds the embedded database (customers' emails, password hashes, the ledger), the
 * sandbox secrets and the encrypted uploads: nobody but the account that runs the bank may read
 * it. PGlite writes the files of a new database through Emscripten, which sets them to 0666 with
 * an explicit chmod that ignores the umask (issue 20, item 1), so the modes are enforced here
 * rather than trusted to the umask.
 */
export const ownerOnlyDirectoryMode = 0o700;
export const ownerOnlyFileMode = 0o600;
/** For the server and the ops CLI: whatever they create is theirs alone from the start. */
export const ownerOnlyUmask = 0o077;

const groupAndOtherBits = 0o077;

async function secureTree(directory: string): Promise<number> {
  let fixed = 0;
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name);
    // A link is neither followed nor changed: its own mode means nothing, and its target may be
    // outside DATA_DIR. Nothing in DATA_DIR makes links.
    if (entry.isSymbolicLink()) continue;
    const { mode } = await lstat(entryPath);
    if (entry.isDirectory()) {
      if ((mode & 0o777) !== ownerOnlyDirectoryMode) {
        await chmod(entryPath, ownerOnlyDirectoryMode);
        fixed += 1;
      }
      fixed += await secureTree(entryPath);
    } else if ((mode & groupAndOtherBits) !== 0) {
      await chmod(entryPath, mode & ownerOnlyFileMode);
      fixed += 1;
    }
  }
  return fixed;
}

/**
 * Creates `directory` owner-only if it is missing and takes group and other permissions off
 * everything in it: directories become 0700, files lose all but their owner's read and write.
 * Answers how many entries it had to change, for the log.
 */
export async function secureDataDirectory(directory: string): Promise<number> {
  await mkdir(directory, { recursive: true, mode: ownerOnlyDirectoryMode });
  const { mode } = await lstat(directory);
  let fixed = 0;
  if ((mode & 0o777) !== ownerOnlyDirectoryMode) {
    await chmod(directory, ownerOnlyDirectoryMode);
    fixed += 1;
  }
  return fixed + (await secureTree(directory));
}
