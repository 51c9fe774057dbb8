/** For the backup's tests: what anyone holding a backup file could read of it. */
import { openBackup } from '../inspect.ts';

/** The manifest and every part's bytes, unpacked and checked. */
export async function unpackedBytes(file: string): Promise<Buffer> {
  const opened = await openBackup(file);
  if (!opened.ok) throw new Error(opened.error.message);
  const chunks: Buffer[] = [Buffer.from(JSON.stringify(opened.value.reader.manifest))];
  try {
    for (const part of opened.value.info.parts) {
      const read = await opened.value.reader.readPart(part, async (b) => {
        chunks.push(Buffer.from(b));
      });
      if (!read.ok) throw new Error(read.error.message);
    }
  } finally {
    opened.value.reader.close();
  }
  return Buffer.concat(chunks);
}
