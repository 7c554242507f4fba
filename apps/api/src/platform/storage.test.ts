import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemStorage, createS3Storage, type FileStorage } from './storage.ts';

const key = Buffer.alloc(32, 9);
const document = Buffer.from('%PNG pretend identity document 123-45-6789');

function behavesAsPrivateEncryptedStorage(name: string, storage: () => FileStorage, rawObjects: () => Promise<Buffer[]>) {
  describe(name, () => {
    it('gives back exactly what was put, and never stores it readable', async () => {
      await storage().put('0f3c2a1e-aaaa-4bbb-8ccc-000000000001', document);
      expect(await storage().get('0f3c2a1e-aaaa-4bbb-8ccc-000000000001')).toEqual(document);
      const raw = await rawObjects();
      expect(raw.length).toBeGreaterThan(0);
      for (const bytes of raw) expect(bytes.includes(Buffer.from('123-45-6789'))).toBe(false);
    });

    it('refuses a key that could walk out of the store', async () => {
      await expect(storage().put('../../etc/passwd', document)).rejects.toThrow(/unexpected shape/);
    });

    it('removes a file', async () => {
      await storage().put('0f3c2a1e-aaaa-4bbb-8ccc-000000000002', document);
      await storage().remove('0f3c2a1e-aaaa-4bbb-8ccc-000000000002');
      await expect(storage().get('0f3c2a1e-aaaa-4bbb-8ccc-000000000002')).rejects.toThrow();
    });
  });
}

let directory = '';
beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'strongroom-files-'));
});

async function filesUnder(root: string): Promise<Buffer[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => readFile(path.join(entry.parentPath, entry.name))));
}

behavesAsPrivateEncryptedStorage(
  'filesystem storage',
  () => createFilesystemStorage(directory, key),
  () => filesUnder(directory),
);

describe('S3-compatible storage against a real S3 protocol server', () => {
  let server: S3rver;
  let storage: FileStorage;
  let bucketDirectory = '';
  beforeAll(async () => {
    bucketDirectory = await mkdtemp(path.join(tmpdir(), 'strongroom-s3-'));
    server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: bucketDirectory, configureBuckets: [{ name: 'strongroom-uploads' }] });
    const { port } = await server.run();
    storage = createS3Storage(
      {
        bucket: 'strongroom-uploads',
        region: 'us-east-1',
        endpoint: `http://127.0.0.1:${port}`,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
      key,
    );
  });
  afterAll(async () => {
    await server.close();
  });
  behavesAsPrivateEncryptedStorage(
    'S3 storage',
    () => storage,
    () => filesUnder(bucketDirectory),
  );
});
