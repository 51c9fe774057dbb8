/** A local file as base64 (no data: prefix), so a dropped photo crosses IPC/HTTP inside JSON. */
import { blobToBase64 } from '../../lib/blob-base64';
import type { DroppedFile } from './draft';

/**
 * The largest file the composer sends. Browser mode carries commands over HTTP with a 10 MB body
 * cap (base64 adds a third): 7 MB fits. Electron's IPC has no such cap; 200 MB is the core's own.
 */
export function maxEnclosureBytes(transport: 'electron' | 'browser'): number {
  return transport === 'browser' ? 7 * 1024 * 1024 : 200 * 1024 * 1024;
}

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

export async function readDroppedFile(file: File, maxBytes: number): Promise<DroppedFile> {
  if (file.size > maxBytes) {
    throw new Error(
      `${file.name} is ${mb(file.size)}; files up to ${mb(maxBytes)} can be attached here. ` +
        'Put it online and give its address as the enclosure instead.',
    );
  }
  try {
    return { fileName: file.name, dataBase64: await blobToBase64(file), size: file.size, type: file.type };
  } catch (e) {
    throw new Error(`Could not read ${file.name}: ${e instanceof Error ? e.message : 'unknown error'}`);
  }
}
