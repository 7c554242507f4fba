import { Zip, ZipDeflate } from 'fflate';

export interface ZipEntry {
  name: string;
  /** The file's bytes, a piece at a time: read only when the zip reaches this file. */
  content: () => AsyncIterable<string | Uint8Array>;
}

const encoder = new TextEncoder();

/**
 * Writes a zip as a stream with fflate's streaming Zip: each file is deflated as its pieces come,
 * and whatever the zip has ready leaves after each piece, so the reader of this generator (the
 * HTTP reply, with its backpressure) decides the pace and memory holds one piece at a time, not
 * the archive. Files are written one after the other, in the order given.
 */
export async function* zipStream(entries: readonly ZipEntry[], modifiedAt: Date): AsyncGenerator<Uint8Array, void, undefined> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const take = (): Uint8Array | null => {
    if (failure) throw failure;
    if (ready.length === 0) return null;
    const chunk = ready.length === 1 ? ready[0] : Buffer.concat(ready);
    ready.length = 0;
    return chunk ?? null;
  };

  for (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    file.mtime = modifiedAt;
    zip.add(file);
    for await (const piece of entry.content()) {
      const bytes = typeof piece === 'string' ? encoder.encode(piece) : piece;
      if (bytes.length === 0) continue;
      file.push(bytes, false);
      const chunk = take();
      if (chunk) yield chunk;
    }
    file.push(new Uint8Array(0), true);
    const chunk = take();
    if (chunk) yield chunk;
  }
  zip.end();
  const last = take();
  if (last) yield last;
}
